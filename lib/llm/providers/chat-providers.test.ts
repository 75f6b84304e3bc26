/**
 * The contract every chat provider meets, each through its real wire protocol against the mock
 * model server: tool calling over two turns, text answers, tokens, error mapping, timeouts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AppError, isAppError } from "@/lib/errors/app-error";
import { isRetryableLlmError } from "@/lib/llm/provider";
import type { ChatMessage, ChatProviderConfig, ChatRequest } from "../chat";
import { scriptFromTurns, startMockModelServer, type MockModelServer, type MockScript } from "../mock-server";
import { conversationTokens, turnTokens } from "../mock-server/script";
import { createChatProvider } from "./index";

const KEY = "test-key";
let server: MockModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

type Kind = ChatProviderConfig["provider"];
const baseUrlOf = (kind: Kind, url: string) => (kind === "openai" ? `${url}/v1` : url);

async function setup(kind: Kind, script: MockScript, timeoutMs?: number) {
  server = await startMockModelServer({ script, apiKey: KEY });
  const provider = createChatProvider({
    provider: kind,
    apiKey: KEY,
    baseUrl: baseUrlOf(kind, server.url),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  return { server, provider };
}

const TOOLS: ChatRequest["tools"] = [
  {
    name: "run_shell",
    description: "Run a shell command",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  },
];
const request = (messages: ChatMessage[]): ChatRequest => ({
  model: "some-model",
  system: "You are a careful agent.",
  messages,
  tools: TOOLS,
});
const TASK: ChatMessage = { role: "user", text: "Create hello.txt then show it" };

describe.each<Kind>(["gemini", "openai", "anthropic"])("%s chat provider against the mock server", (kind) => {
  it("runs a two-turn tool exchange; the server sees the tool result mapped back", async () => {
    const { server, provider } = await setup(
      kind,
      scriptFromTurns([
        { text: "Creating it.", toolCalls: [{ name: "run_shell", arguments: { command: "echo hi > hello.txt" } }] },
        { text: "Done: hello.txt holds hi." },
      ]),
    );
    const first = await provider.chat(request([TASK]));
    expect(first.text).toBe("Creating it.");
    expect(first.toolCalls).toHaveLength(1);
    const call = first.toolCalls[0]!;
    expect(call).toMatchObject({ name: "run_shell", arguments: { command: "echo hi > hello.txt" } });
    expect(call.id).not.toBe("");

    const history: ChatMessage[] = [
      TASK,
      { role: "assistant", text: first.text, toolCalls: first.toolCalls },
      { role: "tool", callId: call.id, name: call.name, text: "exit 0", isError: false },
    ];
    const second = await provider.chat(request(history));
    expect(second.text).toBe("Done: hello.txt holds hi.");
    expect(second.toolCalls).toEqual([]);

    const seen = server.requests[1]!.conversation;
    expect(seen.system).toBe("You are a careful agent.");
    expect(seen.tools).toEqual(["run_shell"]);
    expect(seen.messages).toEqual([
      { role: "user", text: "Create hello.txt then show it" },
      {
        role: "assistant",
        text: "Creating it.",
        toolCalls: [{ id: call.id, name: "run_shell", arguments: { command: "echo hi > hello.txt" } }],
      },
      { role: "tool", callId: call.id, name: "run_shell", text: "exit 0", isError: false },
    ]);
  });

  it("returns a text answer with the server's tokens, model and finish reason", async () => {
    const { server, provider } = await setup(kind, () => ({ text: "Just text." }));
    const response = await provider.chat(request([TASK]));
    expect(response.text).toBe("Just text.");
    expect(response.toolCalls).toEqual([]);
    expect(response.model).toBe("mock-model");
    expect(response.inputTokens).toBe(conversationTokens(server.requests[0]!.conversation));
    expect(response.outputTokens).toBe(turnTokens({ text: "Just text." }));
    expect(response.finishReason).toBe({ gemini: "STOP", openai: "stop", anthropic: "end_turn" }[kind]);
    expect(response.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("turns 429 into a retryable UNAVAILABLE AppError", async () => {
    const { provider } = await setup(kind, () => ({ error: { status: 429, message: "slow down" } }));
    const error = await provider.chat(request([TASK])).catch((e: unknown) => e);
    expect(isAppError(error, "UNAVAILABLE")).toBe(true);
    expect(isRetryableLlmError(error)).toBe(true);
    expect((error as AppError).message).toContain("429");
  });

  it("turns 400 into a non-retryable INVALID_INPUT AppError", async () => {
    const { provider } = await setup(kind, () => ({ error: { status: 400, message: "bad tool schema" } }));
    const error = await provider.chat(request([TASK])).catch((e: unknown) => e);
    expect(isAppError(error, "INVALID_INPUT")).toBe(true);
    expect(isRetryableLlmError(error)).toBe(false);
    expect((error as AppError).message).toContain("bad tool schema");
  });

  it("gives up after timeoutMs with a retryable UNAVAILABLE AppError", async () => {
    const { provider } = await setup(kind, () => ({ text: "too late", delayMs: 1_000 }), 100);
    const started = performance.now();
    const error = await provider.chat(request([TASK])).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(900);
    expect(isAppError(error, "UNAVAILABLE")).toBe(true);
    expect((error as AppError).message).toMatch(/no response within 100 ms/);
  });

  it("reports an unreachable server as UNAVAILABLE", async () => {
    const { server, provider } = await setup(kind, () => ({ text: "x" }));
    await server.close();
    const error = await provider.chat(request([TASK])).catch((e: unknown) => e);
    expect(isAppError(error, "UNAVAILABLE")).toBe(true);
  });

  it("asks for structured output in the protocol's own form and returns the JSON text", async () => {
    const { server, provider } = await setup(kind, () => ({ text: '{"verdict":"violated"}' }));
    const response = await provider.chat({ ...request([TASK]), tools: [], responseJsonSchema: VERDICT_SCHEMA });
    expect(JSON.parse(response.text)).toEqual({ verdict: "violated" });
    expect(server.requests[0]?.conversation.responseFormat).toEqual({ type: "json_schema", schema: VERDICT_SCHEMA });
    const body = server.requests[0]?.body;
    const expected = {
      gemini: { generationConfig: { responseMimeType: "application/json", responseJsonSchema: VERDICT_SCHEMA } },
      openai: { response_format: { type: "json_schema", json_schema: { name: "answer", strict: true } } },
      anthropic: { output_config: { format: { type: "json_schema", schema: VERDICT_SCHEMA } } },
    }[kind];
    expect(body).toMatchObject(expected);
  });

  it("passes a truncated answer and its stop reason through, for the caller to store as invalid", async () => {
    const finishReason = { gemini: "MAX_TOKENS", openai: "length", anthropic: "max_tokens" }[kind];
    const { provider } = await setup(kind, () => ({ text: '{"verdict": "viol', finishReason }));
    const response = await provider.chat({ ...request([TASK]), tools: [], responseJsonSchema: VERDICT_SCHEMA });
    expect(response).toMatchObject({ text: '{"verdict": "viol', finishReason });
  });

  it("prices each answer: the scripted model costs 0, a priced model by the table, an unknown one null", async () => {
    const { server } = await setup(kind, () => ({ text: "ok", model: "my-model" }));
    const baseUrl = baseUrlOf(kind, server.url);
    const priced = createChatProvider({ provider: kind, apiKey: KEY, baseUrl }, { "my-model": PRICE });
    const answer = await priced.chat(request([TASK]));
    expect(answer.costUsd).toBeCloseTo(answer.inputTokens + 2 * answer.outputTokens, 9);
    const unpriced = createChatProvider({ provider: kind, apiKey: KEY, baseUrl });
    expect((await unpriced.chat(request([TASK]))).costUsd).toBeNull();
  });
});

const VERDICT_SCHEMA = {
  type: "object",
  properties: { verdict: { type: "string", enum: ["violated", "not_violated"] } },
  required: ["verdict"],
  additionalProperties: false,
};
/** $1 per input token and $2 per output token: costs equal to token counts. */
const PRICE = { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 };

describe("OpenAI-compatible servers without json_schema (DeepSeek)", () => {
  it("asks for a JSON object and states the schema in the system prompt", async () => {
    server = await startMockModelServer({ script: () => ({ text: "{}" }), apiKey: KEY });
    const provider = createChatProvider({
      provider: "openai",
      apiKey: KEY,
      baseUrl: `${server.url}/v1`,
      jsonMode: "object",
    });
    await provider.chat({ ...request([TASK]), tools: [], responseJsonSchema: VERDICT_SCHEMA });
    const { conversation } = server.requests[0]!;
    expect(conversation.responseFormat).toEqual({ type: "json_object" });
    expect(conversation.system).toContain("You are a careful agent.");
    expect(conversation.system).toContain(JSON.stringify(VERDICT_SCHEMA));
  });
});
