import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../chat";
import { startMockModelServer, type MockModelServer } from "../mock-server";
import { ANTHROPIC_DEFAULT_MAX_TOKENS, createAnthropicChatProvider, toAnthropicMessages } from "./anthropic";
import { startStubServer, type StubServer } from "./stub-server.fixture";

let server: MockModelServer | StubServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const TOOL = {
  name: "Bash",
  description: "Run bash",
  parameters: { type: "object", properties: { command: { type: "string" } } },
};

describe("Anthropic chat provider wire mapping", () => {
  it("posts to /v1/messages through the SDK with its key, anthropic-version, max_tokens, system and input_schema tools", async () => {
    const mock = await startMockModelServer({ script: () => ({ text: "ok" }) });
    server = mock;
    const provider = createAnthropicChatProvider({ apiKey: "sk-ant", baseUrl: mock.url });
    await provider.chat({
      model: "claude-x",
      system: "Be careful.",
      messages: [{ role: "user", text: "hi" }],
      tools: [TOOL],
    });
    const [request] = mock.requests;
    expect(request?.path).toBe("/v1/messages");
    // @anthropic-ai/sdk 1.x sends the key as a bearer token, and its own API version.
    expect(request?.headers.authorization).toBe("Bearer sk-ant");
    expect(request?.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request?.headers["user-agent"]).toMatch(/^Anthropic\/JS /);
    expect(request?.body).toEqual({
      model: "claude-x",
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      system: "Be careful.",
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      tools: [{ name: "Bash", description: "Run bash", input_schema: TOOL.parameters }],
    });
  });

  it("sends tool_use blocks, and all results of a turn as tool_result blocks of one user message", () => {
    const messages: ChatMessage[] = [
      { role: "user", text: "go" },
      {
        role: "assistant",
        text: "Looking.",
        toolCalls: [
          { id: "t1", name: "Bash", arguments: { command: "ls" } },
          { id: "t2", name: "Bash", arguments: { command: "pwd" } },
        ],
      },
      { role: "tool", callId: "t1", name: "Bash", text: "a.txt", isError: false },
      { role: "tool", callId: "t2", name: "Bash", text: "denied", isError: true },
      { role: "user", text: "Keep going." },
      { role: "assistant", text: "", toolCalls: [] },
    ];
    expect(toAnthropicMessages(messages)).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Looking." },
          { type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } },
          { type: "tool_use", id: "t2", name: "Bash", input: { command: "pwd" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "a.txt" },
          { type: "tool_result", tool_use_id: "t2", content: "denied", is_error: true },
          { type: "text", text: "Keep going." },
        ],
      },
    ]);
  });

  it("counts prompt-cache reads and writes as input tokens and ignores thinking blocks", async () => {
    const stub = await startStubServer(() => ({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-real",
      content: [
        { type: "thinking", thinking: "hmm", signature: "s" },
        { type: "text", text: "Hello" },
        { type: "tool_use", id: "toolu_9", name: "Bash", input: { command: "ls" } },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 3, output_tokens: 7, cache_creation_input_tokens: 100, cache_read_input_tokens: 20 },
    }));
    server = stub;
    const provider = createAnthropicChatProvider({ apiKey: "k", baseUrl: stub.url });
    const response = await provider.chat({
      model: "c",
      system: "",
      messages: [{ role: "user", text: "x" }],
      tools: [],
      maxOutputTokens: 50,
    });
    expect(response).toMatchObject({
      text: "Hello",
      toolCalls: [{ id: "toolu_9", name: "Bash", arguments: { command: "ls" } }],
      inputTokens: 123,
      outputTokens: 7,
      model: "claude-real",
      finishReason: "tool_use",
    });
    expect(stub.bodies[0]).toMatchObject({ max_tokens: 50 });
    expect(stub.bodies[0]).not.toHaveProperty("system");
    expect(stub.bodies[0]).not.toHaveProperty("tools");
  });
});
