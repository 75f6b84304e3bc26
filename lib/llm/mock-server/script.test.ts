import { describe, expect, it } from "vitest";
import {
  ConversationBuilder,
  conversationTokens,
  estimateTokens,
  scriptFromTurns,
  turnTokens,
  type MockConversation,
  type ScriptedTurn,
} from "./script";

const conversation = (messages: MockConversation["messages"]): MockConversation => ({
  protocol: "openai-chat",
  model: "m",
  stream: false,
  system: "",
  messages,
  tools: [],
  responseFormat: null,
});

const TURNS: ScriptedTurn[] = [
  { toolCalls: [{ name: "write_file", arguments: { path: "hello.txt", content: "hi" } }] },
  { toolCalls: [{ name: "run", arguments: { command: "cat hello.txt" } }] },
  { text: "done" },
];

describe("scriptFromTurns", () => {
  const script = scriptFromTurns(TURNS);

  it("answers turn k when the history holds k assistant turns", async () => {
    expect(await script(conversation([{ role: "user", text: "go" }]))).toBe(TURNS[0]);
    const afterOne = conversation([
      { role: "user", text: "go" },
      { role: "assistant", text: "", toolCalls: [{ id: "a", name: "write_file", arguments: {} }] },
      { role: "tool", callId: "a", name: "write_file", text: "ok", isError: false },
    ]);
    expect(await script(afterOne)).toBe(TURNS[1]);
    const afterTwo = conversation([
      ...afterOne.messages,
      { role: "assistant", text: "", toolCalls: [{ id: "b", name: "run", arguments: {} }] },
      { role: "tool", callId: "b", name: "run", text: "hi", isError: false },
    ]);
    expect(await script(afterTwo)).toBe(TURNS[2]);
  });

  it("is stateless: the same history always gets the same turn, in any order", async () => {
    const fresh = conversation([{ role: "user", text: "go" }]);
    const later = conversation([
      { role: "user", text: "go" },
      { role: "assistant", text: "x", toolCalls: [] },
    ]);
    expect(await script(later)).toBe(TURNS[1]);
    expect(await script(fresh)).toBe(TURNS[0]);
    expect(await script(fresh)).toBe(TURNS[0]);
  });

  it("answers a non-retryable 400 once the script is exhausted", async () => {
    const long = conversation(
      Array.from({ length: 3 }, () => ({ role: "assistant" as const, text: "x", toolCalls: [] })),
    );
    const turn = await script(long);
    expect(turn.error?.status).toBe(400);
    expect(turn.error?.message).toContain("3 assistant turns");
  });
});

describe("ConversationBuilder", () => {
  it("merges adjacent assistant items into one turn and finds result names by call id", () => {
    const history = new ConversationBuilder();
    history.user("go");
    history.assistant("thinking aloud", []);
    history.assistant("", [{ id: "c1", name: "run", arguments: { command: "ls" } }]);
    history.assistant("", [{ id: "c2", name: "read", arguments: { path: "a" } }]);
    history.toolResult({ callId: "c2", text: "A", isError: false });
    history.toolResult({ callId: "c1", text: "boom", isError: true });
    expect(history.build()).toEqual([
      { role: "user", text: "go" },
      {
        role: "assistant",
        text: "thinking aloud",
        toolCalls: [
          { id: "c1", name: "run", arguments: { command: "ls" } },
          { id: "c2", name: "read", arguments: { path: "a" } },
        ],
      },
      { role: "tool", callId: "c2", name: "read", text: "A", isError: false },
      { role: "tool", callId: "c1", name: "run", text: "boom", isError: true },
    ]);
  });

  it("numbers calls without ids and matches id-less results by name, in order", () => {
    const history = new ConversationBuilder();
    history.assistant("", [
      { name: "run", arguments: { command: "a" } },
      { name: "run", arguments: { command: "b" } },
    ]);
    history.toolResult({ name: "run", text: "A", isError: false });
    history.toolResult({ name: "run", text: "B", isError: false });
    const [, first, second] = history.build();
    expect(first).toMatchObject({ role: "tool", callId: "call_1", text: "A" });
    expect(second).toMatchObject({ role: "tool", callId: "call_2", text: "B" });
  });

  it("drops empty user text", () => {
    const history = new ConversationBuilder();
    history.user("  ");
    expect(history.build()).toEqual([]);
  });
});

describe("token estimates", () => {
  it("count the system prompt, texts and tool calls at ~4 characters per token", () => {
    const c = { ...conversation([{ role: "user", text: "12345678" }]), system: "1234" };
    expect(conversationTokens(c)).toBe(3);
    const call = { name: "run", arguments: { command: "ls" } };
    expect(turnTokens({ text: "abcd", toolCalls: [call] })).toBe(
      1 + estimateTokens(`run${JSON.stringify(call.arguments)}`),
    );
  });
});
