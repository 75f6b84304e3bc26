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

const HEADERS = { "x-api-key": "k", "anthropic-version": "2023-06-01" };
const CALL = { name: "Bash", arguments: { command: "cat hello.txt", description: "Show it" } };
/** Shaped like Claude Code's requests: system blocks, tool_result plus a reminder in one user message. */
const BODY = {
  model: "claude-x",
  max_tokens: 1024,
  system: [
    { type: "text", text: "You are Claude Code." },
    { type: "text", text: "Be careful.", cache_control: { type: "ephemeral" } },
  ],
  messages: [
    { role: "user", content: "Create hello.txt" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Writing." },
        { type: "tool_use", id: "toolu_1", name: "Write", input: { file_path: "hello.txt", content: "hi" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "denied" }], is_error: true },
        { type: "text", text: "<system-reminder>be brief</system-reminder>" },
      ],
    },
  ],
  tools: [
    { name: "Write", input_schema: {} },
    { name: "Bash", input_schema: {} },
  ],
};

type Event = Record<string, unknown> & { type: string };

describe("mock server, Anthropic Messages", () => {
  it("maps system blocks, tool_use and tool_result blocks into the neutral conversation", async () => {
    const s = await start(() => ({ text: "ok" }));
    await postRaw(`${s.url}/v1/messages?beta=true`, BODY, HEADERS);
    expect(s.requests[0]?.conversation).toEqual({
      protocol: "anthropic",
      model: "claude-x",
      stream: false,
      system: "You are Claude Code.\nBe careful.",
      messages: [
        { role: "user", text: "Create hello.txt" },
        {
          role: "assistant",
          text: "Writing.",
          toolCalls: [{ id: "toolu_1", name: "Write", arguments: { file_path: "hello.txt", content: "hi" } }],
        },
        { role: "tool", callId: "toolu_1", name: "Write", text: "denied", isError: true },
        { role: "user", text: "<system-reminder>be brief</system-reminder>" },
      ],
      tools: ["Write", "Bash"],
      responseFormat: null,
    });
  });

  it("answers a message with tool_use blocks, stop reason and usage", async () => {
    const s = await start(() => ({ text: "Showing.", toolCalls: [CALL] }));
    const { response, text } = await postRaw(`${s.url}/v1/messages`, BODY, HEADERS);
    expect(response.status).toBe(200);
    const input = conversationTokens(s.requests[0]!.conversation);
    expect(JSON.parse(text)).toEqual({
      id: "msg_mock_1",
      type: "message",
      role: "assistant",
      model: "mock-model",
      content: [
        { type: "text", text: "Showing." },
        { type: "tool_use", id: "toolu_mock_1_0", name: "Bash", input: CALL.arguments },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: input,
        output_tokens: turnTokens({ text: "Showing.", toolCalls: [CALL] }),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
  });

  it("streams message_start, content blocks with text and input_json deltas, message_delta, message_stop", async () => {
    const s = await start(() => ({ text: "Showing it now.", toolCalls: [CALL] }));
    const { response, text } = await postRaw(`${s.url}/v1/messages?beta=true`, { ...BODY, stream: true }, HEADERS);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("connection")).toBe("close");
    const events = parseSse(text);
    expect(events.every((e) => e.event === (JSON.parse(e.data) as Event).type)).toBe(true);
    const payloads = sseJson(events) as Event[];
    expect(payloads.map((e) => e.type)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(payloads[0]).toMatchObject({
      message: { id: "msg_mock_1", role: "assistant", model: "mock-model", content: [], stop_reason: null },
    });
    expect(payloads[2]).toEqual({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    const deltas = payloads.filter((e) => e.type === "content_block_delta") as unknown as {
      index: number;
      delta: Record<string, string>;
    }[];
    expect(
      deltas
        .filter((d) => d.index === 0)
        .map((d) => d.delta.text)
        .join(""),
    ).toBe("Showing it now.");
    expect(deltas[0]?.delta.type).toBe("text_delta");
    expect(payloads[7]).toEqual({
      type: "content_block_start",
      index: 1,
      content_block: { type: "tool_use", id: "toolu_mock_1_0", name: "Bash", input: {} },
    });
    const json = deltas.filter((d) => d.index === 1);
    expect(json.every((d) => d.delta.type === "input_json_delta")).toBe(true);
    expect(JSON.parse(json.map((d) => d.delta.partial_json).join(""))).toEqual(CALL.arguments);
    expect(payloads[11]).toMatchObject({
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { output_tokens: turnTokens({ text: "Showing it now.", toolCalls: [CALL] }) },
    });
  });

  it("counts tokens and answers errors in Anthropic's error shape", async () => {
    const s = await start(() => ({ error: { status: 529, message: "Overloaded" } }));
    const count = await postRaw(`${s.url}/v1/messages/count_tokens`, BODY, HEADERS);
    expect(JSON.parse(count.text)).toEqual({ input_tokens: expect.any(Number) });
    const overloaded = await postRaw(`${s.url}/v1/messages`, BODY, HEADERS);
    expect(overloaded.response.status).toBe(529);
    expect(JSON.parse(overloaded.text)).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
    const bad = await postRaw(`${s.url}/v1/messages`, { model: "x", messages: "no" }, HEADERS);
    expect(JSON.parse(bad.text)).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    const denied = await postRaw(`${s.url}/v1/messages`, BODY, { "x-api-key": "wrong" });
    expect(JSON.parse(denied.text)).toMatchObject({ error: { type: "authentication_error" } });
  });
});
