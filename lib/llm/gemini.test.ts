import { GoogleGenAI } from "@google/genai";
import { afterEach, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors/app-error";
import { evaluationInput } from "@/lib/judge/input.fixture";
import { createLlmJudge } from "@/lib/judge/llm/llm-judge";
import { createGeminiProvider } from "./gemini";
import { estimateTokens, startMockGeminiServer, type MockGeminiServer, type MockResponder } from "./mock-gemini-server";
import { isRetryableLlmError } from "./provider";

const KEY = "test-key-123";
let server: MockGeminiServer | null = null;

async function start(respond: MockResponder) {
  server = await startMockGeminiServer({ respond, apiKey: KEY });
  return { server, provider: createGeminiProvider({ apiKey: KEY, baseUrl: server.url }) };
}

afterEach(async () => {
  await server?.close();
  server = null;
});

const ANSWER = JSON.stringify({ rationale: "read before acting", cited_steps: [], verdict: "not_violated" });

describe("Gemini provider through @google/genai against the mock server", () => {
  it("returns the text, token usage, model and latency", async () => {
    const { provider } = await start(() => "hello from the mock");
    const response = await provider.generate({ model: "gemini-2.5-flash", system: "Be brief.", prompt: "Say hello." });
    expect(response.text).toBe("hello from the mock");
    expect(response.inputTokens).toBe(estimateTokens("Be brief.") + estimateTokens("Say hello."));
    expect(response.outputTokens).toBe(estimateTokens("hello from the mock"));
    expect(response.model).toBe("gemini-2.5-flash");
    expect(response.finishReason).toBe("STOP");
    expect(response.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("sends JSON mode, the schema, generation settings, the system instruction and the API key", async () => {
    const { server, provider } = await start(() => ANSWER);
    const schema = { type: "object", properties: { verdict: { type: "string" } }, required: ["verdict"] };
    await provider.generate({
      model: "gemini-2.5-flash",
      system: "You judge.",
      prompt: "Judge this.",
      responseJsonSchema: schema,
      temperature: 0,
      maxOutputTokens: 512,
    });
    const [request] = server.requests;
    expect(request?.model).toBe("gemini-2.5-flash");
    expect(request?.method).toBe("generateContent");
    expect(request?.headers["x-goog-api-key"]).toBe(KEY);
    expect(request?.body.generationConfig).toMatchObject({
      responseMimeType: "application/json",
      responseJsonSchema: schema,
      temperature: 0,
      maxOutputTokens: 512,
    });
    expect(request?.body.systemInstruction?.parts[0]?.text).toBe("You judge.");
    expect(request?.body.contents[0]).toMatchObject({ role: "user", parts: [{ text: "Judge this." }] });
    expect(request?.system).toBe("You judge.");
  });

  it("asks for plain text when no schema is given", async () => {
    const { server, provider } = await start(() => "plain");
    await provider.generate({ model: "gemini-2.5-flash", system: "", prompt: "hi" });
    expect(server.requests[0]?.body.generationConfig?.responseMimeType).toBeUndefined();
    expect(server.requests[0]?.body.systemInstruction).toBeUndefined();
  });

  it("reports the mock's model version when the responder sets one", async () => {
    const { provider } = await start(() => ({ text: ANSWER, modelVersion: "mock-gemini" }));
    const response = await provider.generate({ model: "gemini-2.5-flash", system: "", prompt: "x" });
    expect(response.model).toBe("mock-gemini");
  });

  it("turns 400 into a non-retryable INVALID_INPUT AppError", async () => {
    const { provider } = await start(() => ({ status: 400, text: "Invalid value at 'generation_config.temperature'" }));
    const error = await provider
      .generate({ model: "gemini-2.5-flash", system: "", prompt: "x" })
      .catch((e: unknown) => e);
    expect(isAppError(error, "INVALID_INPUT")).toBe(true);
    expect(isRetryableLlmError(error)).toBe(false);
    expect((error as Error).message).toContain("HTTP 400");
    expect((error as Error).message).toContain("generation_config.temperature");
  });

  it("turns 429 and 5xx into retryable UNAVAILABLE AppErrors", async () => {
    for (const status of [429, 500, 503]) {
      const { provider } = await start(() => ({ status }));
      const error = await provider
        .generate({ model: "gemini-2.5-flash", system: "", prompt: "x" })
        .catch((e: unknown) => e);
      expect(isAppError(error, "UNAVAILABLE")).toBe(true);
      expect(isRetryableLlmError(error)).toBe(true);
      expect((error as Error).message).toContain(`HTTP ${status}`);
      await server?.close();
      server = null;
    }
  });

  it("rejects a wrong API key as the real service does (400, not retryable)", async () => {
    const { server } = await start(() => ANSWER);
    const provider = createGeminiProvider({ apiKey: "wrong", baseUrl: server.url });
    const error = await provider
      .generate({ model: "gemini-2.5-flash", system: "", prompt: "x" })
      .catch((e: unknown) => e);
    expect(isAppError(error, "INVALID_INPUT")).toBe(true);
    expect((error as Error).message).toContain("API key not valid");
    expect(server.requests).toHaveLength(0);
  });

  it("turns a refused connection into a retryable UNAVAILABLE AppError", async () => {
    const { server } = await start(() => ANSWER);
    const url = server.url;
    await server.close();
    const provider = createGeminiProvider({ apiKey: KEY, baseUrl: url });
    const error = await provider
      .generate({ model: "gemini-2.5-flash", system: "", prompt: "x" })
      .catch((e: unknown) => e);
    expect(isAppError(error, "UNAVAILABLE")).toBe(true);
  });

  it("streams through generateContentStream (SSE)", async () => {
    const text = "a streamed answer in several chunks";
    const { server } = await start(() => text);
    const ai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: server.url } });
    const stream = await ai.models.generateContentStream({ model: "gemini-2.5-flash", contents: "stream please" });
    const chunks: string[] = [];
    let last: { finishReason?: string; candidatesTokenCount?: number } = {};
    for await (const chunk of stream) {
      chunks.push(chunk.text ?? "");
      last = {
        finishReason: chunk.candidates?.[0]?.finishReason,
        candidatesTokenCount: chunk.usageMetadata?.candidatesTokenCount,
      };
    }
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe(text);
    expect(last).toEqual({ finishReason: "STOP", candidatesTokenCount: estimateTokens(text) });
    expect(server.requests[0]?.method).toBe("streamGenerateContent");
  });
});

describe("mock server wire format", () => {
  it("answers generateContent in Gemini's REST shape", async () => {
    const { server } = await start(() => "hi");
    const response = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "12345678" }] }] }),
    });
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({
      candidates: [{ content: { parts: [{ text: "hi" }], role: "model" }, finishReason: "STOP", index: 0 }],
      usageMetadata: {
        promptTokenCount: 2,
        candidatesTokenCount: 1,
        totalTokenCount: 3,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 2 }],
      },
      modelVersion: "gemini-2.5-flash",
      responseId: "mock-1",
    });
  });

  it("streams SSE data chunks and closes the connection", async () => {
    const { server } = await start(() => "abcdefghi");
    const response = await fetch(`${server.url}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      method: "POST",
      headers: { "x-goog-api-key": KEY },
      body: JSON.stringify({ contents: [{ parts: [{ text: "x" }] }] }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("connection")).toBe("close");
    const events = (await response.text()).split("\n\n").filter((e) => e !== "");
    expect(events).toHaveLength(3);
    const parsed = events.map((e) => {
      expect(e.startsWith("data: ")).toBe(true);
      return JSON.parse(e.slice("data: ".length)) as {
        candidates: { content: { parts: { text: string }[] }; finishReason?: string }[];
      };
    });
    expect(parsed.map((p) => p.candidates[0]?.content.parts[0]?.text).join("")).toBe("abcdefghi");
    expect(parsed.map((p) => p.candidates[0]?.finishReason ?? null)).toEqual([null, null, "STOP"]);
  });

  it("returns Gemini-shaped errors", async () => {
    const { server } = await start(() => ({ status: 429 }));
    const post = (
      path: string,
      headers: Record<string, string>,
      body = JSON.stringify({ contents: [{ parts: [{ text: "x" }] }] }),
    ) => fetch(`${server.url}${path}`, { method: "POST", headers, body });
    const limited = await post("/v1beta/models/m:generateContent", { "x-goog-api-key": KEY });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      error: { code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" },
    });
    const noKey = await post("/v1beta/models/m:generateContent", {});
    expect(noKey.status).toBe(403);
    expect(((await noKey.json()) as { error: { status: string } }).error.status).toBe("PERMISSION_DENIED");
    const badBody = await post("/v1beta/models/m:generateContent", { "x-goog-api-key": KEY }, "{not json");
    expect(badBody.status).toBe(400);
    expect(((await badBody.json()) as { error: { status: string } }).error.status).toBe("INVALID_ARGUMENT");
    const unknown = await post("/v1beta/models/m:embedContent", { "x-goog-api-key": KEY });
    expect(unknown.status).toBe(404);
  });
});

describe("retries at the judge level", () => {
  const input = evaluationInput({ steps: [{ id: "s1", kind: "file_read", path: "pkg/a.py" }] });

  it("retries a 429 and then succeeds", async () => {
    let calls = 0;
    const { server, provider } = await start(() => (++calls === 1 ? { status: 429 } : ANSWER));
    const retries: number[] = [];
    const judge = createLlmJudge({
      provider,
      model: "gemini-2.5-flash",
      maxRetries: 3,
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 5,
      onEvent: (e) => e.type === "retry" && retries.push(e.attempt),
    });
    const [verdict] = await judge.judgeRun(input, ["file_read"]);
    expect(verdict).toMatchObject({ value: "not_violated", attempts: 2, cached: false });
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([1]);
  });

  it("gives up after maxRetries on persistent 503", async () => {
    const { server, provider } = await start(() => ({ status: 503 }));
    const judge = createLlmJudge({
      provider,
      model: "gemini-2.5-flash",
      maxRetries: 2,
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 2,
    });
    const error = await judge.judgeRun(input, ["file_read"]).catch((e: unknown) => e);
    expect(isAppError(error, "UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain("file_read");
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 400", async () => {
    const { server, provider } = await start(() => ({ status: 400, text: "bad request" }));
    const judge = createLlmJudge({ provider, model: "gemini-2.5-flash", maxRetries: 3, retryBaseDelayMs: 1 });
    const error = await judge.judgeRun(input, ["file_read"]).catch((e: unknown) => e);
    expect(isAppError(error, "INVALID_INPUT")).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});
