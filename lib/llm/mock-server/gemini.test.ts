import { afterEach, describe, expect, it } from "vitest";
import { scriptFromTurns, startMockModelServer, type MockModelServer, type MockScript } from "./index";
import { conversationTokens, turnTokens } from "./script";
import { parseSse, postRaw, sseJson } from "./sse.fixture";

let server: MockModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});
async function start(script: MockScript, apiKey?: string) {
  server = await startMockModelServer({ script, ...(apiKey ? { apiKey } : {}) });
  return server;
}

const KEY = { "x-goog-api-key": "k" };
const CALL = { name: "run_shell_command", arguments: { command: "cat hello.txt" } };
const HISTORY = {
  systemInstruction: { parts: [{ text: "You are an agent." }] },
  contents: [
    { role: "user", parts: [{ text: "Create hello.txt" }] },
    {
      role: "model",
      parts: [
        { text: "Writing it.", thoughtSignature: "sig" },
        { functionCall: { name: "write_file", args: { file_path: "hello.txt", content: "hi" } } },
      ],
    },
    { role: "user", parts: [{ functionResponse: { name: "write_file", response: { output: "ok" } } }] },
  ],
  tools: [{ functionDeclarations: [{ name: "write_file" }, { name: "run_shell_command" }] }, { googleSearch: {} }],
};

describe("mock server, Gemini protocol", () => {
  it("maps contents, function calls and responses into the neutral conversation", async () => {
    const s = await start(scriptFromTurns([{ text: "unused" }, { toolCalls: [CALL] }]));
    await postRaw(`${s.url}/v1beta/models/gemini-2.5-pro:generateContent`, HISTORY, KEY);
    expect(s.requests[0]?.protocol).toBe("gemini");
    expect(s.requests[0]?.conversation).toEqual({
      protocol: "gemini",
      model: "gemini-2.5-pro",
      stream: false,
      system: "You are an agent.",
      messages: [
        { role: "user", text: "Create hello.txt" },
        {
          role: "assistant",
          text: "Writing it.",
          toolCalls: [{ id: "call_1", name: "write_file", arguments: { file_path: "hello.txt", content: "hi" } }],
        },
        { role: "tool", callId: "call_1", name: "write_file", text: "ok", isError: false },
      ],
      tools: ["write_file", "run_shell_command"],
      responseFormat: null,
    });
  });

  it("answers generateContent with one GenerateContentResponse (function calls without ids)", async () => {
    const s = await start(scriptFromTurns([{ text: "a" }, { text: "Now showing.", toolCalls: [CALL] }]));
    const { response, text } = await postRaw(`${s.url}/v1beta/models/gemini-2.5-pro:generateContent`, HISTORY, KEY);
    expect(response.status).toBe(200);
    const conversation = s.requests[0]!.conversation;
    const inputTokens = conversationTokens(conversation);
    const outputTokens = turnTokens({ text: "Now showing.", toolCalls: [CALL] });
    expect(JSON.parse(text)).toEqual({
      candidates: [
        {
          content: {
            role: "model",
            parts: [{ text: "Now showing." }, { functionCall: { name: CALL.name, args: CALL.arguments } }],
          },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: inputTokens,
        candidatesTokenCount: outputTokens,
        totalTokenCount: inputTokens + outputTokens,
      },
      modelVersion: "mock-model",
      responseId: "mock-1",
    });
  });

  it("streams `data:` chunks over SSE with Connection: close, calls and finish reason in the last", async () => {
    const s = await start(() => ({ text: "Creating the file now", toolCalls: [CALL] }));
    const url = `${s.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`;
    const { response, text } = await postRaw(url, HISTORY, KEY);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("connection")).toBe("close");
    const events = parseSse(text);
    expect(events.every((e) => e.event === null)).toBe(true);
    const chunks = sseJson(events) as {
      candidates: { content: { parts: Record<string, unknown>[] }; finishReason?: string }[];
    }[];
    expect(chunks).toHaveLength(4);
    const texts = chunks.flatMap((c) => c.candidates[0]!.content.parts.map((p) => p.text ?? ""));
    expect(texts.join("")).toBe("Creating the file now");
    expect(chunks.slice(0, 3).every((c) => c.candidates[0]!.finishReason === undefined)).toBe(true);
    expect(chunks[3]!.candidates[0]).toMatchObject({
      finishReason: "STOP",
      content: { parts: [{ functionCall: { name: CALL.name, args: CALL.arguments } }] },
    });
    expect(s.requests[0]?.conversation.stream).toBe(true);
  });

  it("answers streamGenerateContent without alt=sse as one JSON array of chunks", async () => {
    const s = await start(() => ({ text: "hello" }));
    const { response, text } = await postRaw(`${s.url}/v1beta/models/m:streamGenerateContent`, HISTORY, KEY);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const chunks = JSON.parse(text) as unknown[];
    expect(chunks).toHaveLength(3);
  });

  it("counts tokens without consulting the script", async () => {
    const s = await start(() => {
      throw new Error("not a model call");
    });
    const { text } = await postRaw(`${s.url}/v1beta/models/m:countTokens`, { contents: HISTORY.contents }, KEY);
    expect(JSON.parse(text)).toEqual({ totalTokens: expect.any(Number) });
    expect(s.requests).toHaveLength(0);
  });

  it("answers scripted errors, bad bodies and wrong keys in Google's error shape", async () => {
    const s = await start(() => ({ error: { status: 429, message: "quota" } }), "k");
    const limited = await postRaw(`${s.url}/v1beta/models/m:generateContent`, HISTORY, KEY);
    expect(limited.response.status).toBe(429);
    expect(JSON.parse(limited.text)).toEqual({ error: { code: 429, message: "quota", status: "RESOURCE_EXHAUSTED" } });
    const bad = await postRaw(`${s.url}/v1beta/models/m:generateContent`, { contents: "x" }, KEY);
    expect(bad.response.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    const denied = await postRaw(`${s.url}/v1beta/models/m:generateContent`, HISTORY, { "x-goog-api-key": "nope" });
    expect(denied.response.status).toBe(401);
    const missing = await postRaw(`${s.url}/v1beta/models/m:embedContent`, HISTORY, KEY);
    expect(missing.response.status).toBe(404);
  });
});
