import { afterEach, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors/app-error";
import type { ChatMessage } from "../chat";
import { startMockModelServer, type MockModelServer } from "../mock-server";
import { parseToolArguments } from "./http";
import { createOpenAiChatProvider, maxTokensFieldFor, toOpenAiMessages } from "./openai-chat";
import { startStubServer, type StubServer } from "./stub-server.fixture";

let server: MockModelServer | StubServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const TOOL = {
  name: "bash",
  description: "Run bash",
  parameters: { type: "object", properties: { command: { type: "string" } } },
};

describe("OpenAI chat provider wire mapping", () => {
  it("posts to {baseUrl}/chat/completions with a bearer key, function tools and settings", async () => {
    const mock = await startMockModelServer({ script: () => ({ text: "ok" }) });
    server = mock;
    const provider = createOpenAiChatProvider({ apiKey: "sk-test", baseUrl: `${mock.url}/v1/` });
    await provider.chat({
      model: "gpt-x",
      system: "Be careful.",
      messages: [{ role: "user", text: "hi" }],
      tools: [TOOL],
      temperature: 0.2,
      maxOutputTokens: 100,
    });
    const [request] = mock.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.body).toEqual({
      model: "gpt-x",
      messages: [
        { role: "system", content: "Be careful." },
        { role: "user", content: "hi" },
      ],
      tools: [{ type: "function", function: { name: "bash", description: "Run bash", parameters: TOOL.parameters } }],
      temperature: 0.2,
      max_tokens: 100,
    });
  });

  it("maps assistant tool calls to tool_calls with JSON arguments and results to role tool", () => {
    const messages: ChatMessage[] = [
      { role: "user", text: "go" },
      { role: "assistant", text: "", toolCalls: [{ id: "c1", name: "bash", arguments: { command: "ls" } }] },
      { role: "tool", callId: "c1", name: "bash", text: "a.txt", isError: false },
      { role: "assistant", text: "Done.", toolCalls: [] },
    ];
    expect(toOpenAiMessages("", messages)).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "a.txt" },
      { role: "assistant", content: "Done." },
    ]);
  });

  it("keeps calls whose arguments are not a JSON object, and numbers id-less calls", async () => {
    const stub = await startStubServer(() => ({
      choices: [
        {
          message: {
            content: null,
            tool_calls: [
              { type: "function", function: { name: "bash", arguments: "{not json" } },
              { id: "x", type: "function", function: { name: "bash", arguments: "" } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
    }));
    server = stub;
    const provider = createOpenAiChatProvider({ apiKey: "k", baseUrl: stub.url });
    const response = await provider.chat({
      model: "m",
      system: "",
      messages: [{ role: "user", text: "go" }],
      tools: [TOOL],
    });
    expect(response.toolCalls).toEqual([
      { id: "call_1", name: "bash", arguments: { _invalidJson: "{not json" } },
      { id: "x", name: "bash", arguments: {} },
    ]);
    expect(response.inputTokens).toBe(0);
    expect(response.model).toBe("m");
    expect(parseToolArguments("[1]")).toEqual({ value: [1] });
  });

  it("reports a 200 answer of the wrong shape as a retryable UNAVAILABLE error", async () => {
    const stub = await startStubServer(() => ({ error: { message: "upstream hiccup" } }));
    server = stub;
    const provider = createOpenAiChatProvider({ apiKey: "k", baseUrl: stub.url });
    const error = await provider.chat({ model: "m", system: "", messages: [], tools: [] }).catch((e: unknown) => e);
    expect(isAppError(error, "UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain("malformed response");
  });

  it("sends max_completion_tokens where configured (api.openai.com by default), max_tokens elsewhere", async () => {
    expect(maxTokensFieldFor("https://api.openai.com/v1")).toBe("max_completion_tokens");
    expect(maxTokensFieldFor("https://openrouter.ai/api/v1")).toBe("max_tokens");
    expect(maxTokensFieldFor("http://127.0.0.1:11434/v1")).toBe("max_tokens");
    const stub = await startStubServer(() => ({ choices: [{ message: { content: "ok" }, finish_reason: "stop" }] }));
    server = stub;
    const provider = createOpenAiChatProvider({
      apiKey: "k",
      baseUrl: stub.url,
      maxTokensField: "max_completion_tokens",
    });
    await provider.chat({
      model: "m",
      system: "",
      messages: [{ role: "user", text: "x" }],
      tools: [],
      maxOutputTokens: 5,
    });
    expect(stub.bodies[0]).toMatchObject({ max_completion_tokens: 5 });
    expect(stub.bodies[0]).not.toHaveProperty("max_tokens");
    expect(stub.bodies[0]).not.toHaveProperty("tools");
  });
});
