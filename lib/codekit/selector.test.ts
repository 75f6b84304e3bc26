import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_IDS } from "@/lib/llm/chat";
import { mockBaseUrl } from "@/lib/llm/endpoints";
import { startMockModelServer, type MockModelServer } from "@/lib/llm/mock-server";
import type { MockConversation } from "@/lib/llm/mock-server/script";
import { createChatProvider } from "@/lib/llm/providers";
import { createMemoryResponseCache } from "@/lib/llm/response-cache.fixture";
import { mitigationInstructions, planMitigation } from "./plan";
import {
  FALLBACK_BY_SUBTASK,
  parseSelectorAnswer,
  scriptedSelectorAnswer,
  selectCodekit,
  SELECTOR_MARKER,
  SELECTOR_PROMPT_VERSION,
  type SelectorModel,
} from "./selector";

const TASK = { subtask: "add_new_file", prompt: "Move `slugify` from `pkg/text.py` into a new file `pkg/slug.py`." };

/** What the mock model answers: per test, set by `answer`. */
let answer: (conversation: MockConversation) => { text: string } | { error: { status: number; message: string } };
let server: MockModelServer;

beforeAll(async () => {
  server = await startMockModelServer({ script: (conversation) => answer(conversation) });
});
afterAll(() => server.close());

const modelOn = (provider: (typeof PROVIDER_IDS)[number], cache = createMemoryResponseCache()): SelectorModel => ({
  provider: createChatProvider({ provider, apiKey: "k", baseUrl: mockBaseUrl(provider, server.url) }),
  model: "mock-selector",
  cache,
});

describe("the Code-KIT selector", () => {
  it("asks each provider with structured output and takes its choice, in catalog order", async () => {
    for (const provider of PROVIDER_IDS) {
      answer = () => ({
        text: JSON.stringify({
          rules: ["file_read", "body_change"],
          tools: ["extract_snippet", "trace_references"],
          reason: "a move",
        }),
      });
      const before = server.requests.length;
      const selection = await selectCodekit(TASK, modelOn(provider));
      expect(selection.rules, provider).toEqual(["body_change", "file_read"]);
      expect(selection.tools).toEqual(["trace_references", "extract_snippet"]);
      expect(selection.record).toMatchObject({
        source: "model",
        promptVersion: SELECTOR_PROMPT_VERSION,
        provider,
        cached: false,
        error: null,
        reason: "a move",
      });
      expect(selection.record.inputTokens).toBeGreaterThan(100);
      const request = server.requests[before]!;
      expect(request.conversation.system).toContain(SELECTOR_MARKER);
      expect(request.conversation.messages[0]!.text).toContain(TASK.prompt);
      expect(request.conversation.responseFormat?.type, provider).toBe("json_schema");
    }
  });

  it("answers an identical request from the cache, at no cost", async () => {
    answer = () => ({ text: JSON.stringify({ rules: [], tools: ["analyze_dependencies"], reason: "r" }) });
    const model = modelOn("gemini");
    const first = await selectCodekit(TASK, model);
    const calls = server.requests.length;
    const second = await selectCodekit(TASK, model);
    expect(server.requests.length).toBe(calls);
    expect(second.tools).toEqual(first.tools);
    expect(second.record).toMatchObject({ cached: true, inputTokens: 0, outputTokens: 0, costUsd: 0 });
  });

  it("falls back to the choice by subtask, saying why, when the answer is unusable or the call fails", async () => {
    const fallback = FALLBACK_BY_SUBTASK.add_new_file!;
    for (const [reply, why] of [
      [{ text: "I would pick the move tools." }, /not JSON/],
      [{ text: JSON.stringify({ rules: ["be_nice"], tools: [], reason: "" }) }, /does not fit its schema/],
      [{ error: { status: 400, message: "bad request" } }, /the selector's call failed/],
    ] as const) {
      answer = () => reply;
      const selection = await selectCodekit(TASK, modelOn("openai"));
      expect(selection.record.source).toBe("fallback");
      expect(selection.record.error).toMatch(why);
      expect(selection.tools).toEqual([...fallback.tools]);
    }
    const none = await selectCodekit(TASK, null);
    expect(none.record).toMatchObject({ source: "fallback", error: "no selector model configured", provider: null });
  });

  it("has a choice for every subtask, and the scripted answer is that choice", () => {
    for (const [subtask, choice] of Object.entries(FALLBACK_BY_SUBTASK)) {
      expect(choice.tools.length, subtask).toBeGreaterThan(0);
      const parsed = parseSelectorAnswer(scriptedSelectorAnswer(`Subtask: ${subtask}\n\nTask: ...`));
      expect("answer" in parsed && parsed.answer.tools).toEqual([...choice.tools]);
    }
  });
});

describe("the arms' plans", () => {
  it("gives nothing for none, every rule for rules, every tool for tools, the selector's choice for codekit and guard", async () => {
    expect(await planMitigation("none", TASK, null)).toBeNull();
    const rules = (await planMitigation("rules", TASK, null))!;
    expect(rules.rules).toHaveLength(11);
    expect(rules.tools).toEqual([]);
    expect(mitigationInstructions(rules)).toContain("Rules for this task (Code-KIT):");
    const tools = (await planMitigation("tools", TASK, null))!;
    expect(tools.tools).toHaveLength(5);
    expect(mitigationInstructions(tools)).toMatch(/^Code-KIT tools are available/);
    const guard = (await planMitigation("guard", TASK, null))!;
    expect(guard).toMatchObject({ arm: "guard", guard: true, selector: { source: "fallback" } });
    expect(mitigationInstructions(guard)).toContain("The sandbox enforces the task's boundaries");
  });
});
