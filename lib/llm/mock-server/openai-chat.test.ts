import { afterEach, describe, expect, it } from "vitest";
import { startMockModelServer, type MockModelServer, type MockScript } from "./index";
import { conversationTokens, turnTokens } from "./script";
import { parseSse, postRaw, sseJson } from "./sse.fixture";

let server: MockModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});
async function start(script: MockScript) {
  server = await startMockModelServer({ script, apiKey: "k" });
  return server;
}

const AUTH = { authorization: "Bearer k" };
const CALL = { name: "bash", arguments: { command: "cat hello.txt" } };
const BODY = {
  model: "gpt-x",
  messages: [
    { role: "system", content: "You are an agent." },
    { role: "user", content: [{ type: "text", text: "Create hello.txt" }] },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_a", type: "function", function: { name: "write", arguments: '{"path":"hello.txt"}' } }],
    },
    { role: "tool", tool_call_id: "call_a", content: "written" },
  ],
  tools: [
    { type: "function", function: { name: "write", parameters: {} } },
    { type: "function", function: { name: "bash" } },
  ],
};

type Chunk = { choices: { delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: unknown };

describe("mock server, OpenAI Chat Completions", () => {
  it("maps messages, tool calls and tool results into the neutral conversation", async () => {
    const s = await start(() => ({ text: "ok" }));
    await postRaw(`${s.url}/v1/chat/completions`, BODY, AUTH);
    expect(s.requests[0]?.conversation).toEqual({
      protocol: "openai-chat",
      model: "gpt-x",
      stream: false,
      system: "You are an agent.",
      messages: [
        { role: "user", text: "Create hello.txt" },
        { role: "assistant", text: "", toolCalls: [{ id: "call_a", name: "write", arguments: { path: "hello.txt" } }] },
        { role: "tool", callId: "call_a", name: "write", text: "written", isError: false },
      ],
      tools: ["write", "bash"],
      responseFormat: null,
    });
  });

  it("answers a chat.completion with tool_calls, finish reason and usage", async () => {
    const s = await start(() => ({ toolCalls: [CALL] }));
    const { response, text } = await postRaw(`${s.url}/v1/chat/completions`, BODY, AUTH);
    expect(response.status).toBe(200);
    const input = conversationTokens(s.requests[0]!.conversation);
    const output = turnTokens({ toolCalls: [CALL] });
    expect(JSON.parse(text)).toMatchObject({
      id: "chatcmpl-mock-1",
      object: "chat.completion",
      model: "mock-model",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_1_0",
                type: "function",
                function: { name: "bash", arguments: JSON.stringify(CALL.arguments) },
              },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
    });
  });

  it("streams delta chunks, a usage chunk on request, and data: [DONE] with Connection: close", async () => {
    const s = await start(() => ({ text: "Showing it now", toolCalls: [CALL] }));
    const body = { ...BODY, stream: true, stream_options: { include_usage: true } };
    const { response, text } = await postRaw(`${s.url}/v1/chat/completions`, body, AUTH);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("connection")).toBe("close");
    const events = parseSse(text);
    expect(events.at(-1)).toEqual({ event: null, data: "[DONE]" });
    const chunks = sseJson(events) as Chunk[];
    expect(chunks.every((c) => (c as { object?: string }).object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta));
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("Showing it now");
    const toolDeltas = deltas.flatMap((d) => (d.tool_calls as Record<string, unknown>[] | undefined) ?? []);
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: "call_1_0",
      type: "function",
      function: { name: "bash", arguments: "" },
    });
    const args = toolDeltas.map((d) => (d.function as { arguments: string }).arguments).join("");
    expect(JSON.parse(args)).toEqual(CALL.arguments);
    const finishing = chunks.at(-2);
    expect(finishing?.choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  it("sends no usage chunk unless asked, and finishes a text answer with stop", async () => {
    const s = await start(() => ({ text: "hi" }));
    const { text } = await postRaw(`${s.url}/v1/chat/completions`, { ...BODY, stream: true }, AUTH);
    const chunks = sseJson(parseSse(text)) as Chunk[];
    expect(chunks.every((c) => c.choices.length === 1 && !("usage" in c))).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
  });

  it("answers errors in OpenAI's error shape", async () => {
    const s = await start(() => ({ error: { status: 429, message: "slow down" } }));
    const limited = await postRaw(`${s.url}/v1/chat/completions`, BODY, AUTH);
    expect(limited.response.status).toBe(429);
    expect(JSON.parse(limited.text)).toEqual({
      error: { message: "slow down", type: "rate_limit_exceeded", param: null, code: "rate_limit_exceeded" },
    });
    const bad = await postRaw(`${s.url}/v1/chat/completions`, { model: "x" }, AUTH);
    expect(bad.response.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ error: { type: "invalid_request_error" } });
    const denied = await postRaw(`${s.url}/v1/chat/completions`, BODY, { authorization: "Bearer wrong" });
    expect(denied.response.status).toBe(401);
  });
});
