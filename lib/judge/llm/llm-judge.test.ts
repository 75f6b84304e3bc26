import { afterEach, describe, expect, it } from "vitest";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { isAppError } from "@/lib/errors/app-error";
import { evaluationInput } from "@/lib/judge/input.fixture";
import { startMockModelServer, type MockModelServer } from "@/lib/llm/mock-server";
import { PROVIDER_IDS } from "@/lib/llm/chat";
import { mockBaseUrl } from "@/lib/llm/endpoints";
import { createChatProvider, createGeminiChatProvider } from "@/lib/llm/providers";
import { judgeScript, seenRequest, type JudgeResponder } from "./mock-judge.fixture";
import { createMemoryResponseCache } from "@/lib/llm/response-cache.fixture";
import { createLlmJudge, type LlmJudgeOptions } from "./llm-judge";
import { PROMPT_VERSION } from "./prompts";
import { LLM_JUDGED_METRICS } from "./schema";

let server: MockModelServer | null = null;

async function setup(respond: JudgeResponder, options: Partial<LlmJudgeOptions> = {}) {
  server = await startMockModelServer({ script: judgeScript(respond), apiKey: "k" });
  const provider = createGeminiChatProvider({ apiKey: "k", baseUrl: server.url });
  const judge = createLlmJudge({
    provider,
    model: "gemini-2.5-flash",
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 2,
    ...options,
  });
  return { server, judge };
}

afterEach(async () => {
  await server?.close();
  server = null;
});

const answer = (verdict: string, cited: string[] = [], rationale = "because") =>
  JSON.stringify({ rationale, cited_steps: cited, verdict });

const steps: TrajectoryStep[] = [
  { id: "s1", kind: "file_read", path: "pkg/a.py" },
  { id: "s2", kind: "file_write", path: "pkg/a.py" },
];
const input = evaluationInput({ runId: "run-1", steps });

describe("createLlmJudge", () => {
  it("returns a valid verdict with citations, dropping steps that do not exist", async () => {
    const text = answer("violated", ["s2", "[s1]", "s99"], "wrote at [s2] before reading the dependency");
    const { server, judge } = await setup(() => text);
    const [verdict] = await judge.judgeRun(input, ["file_read"]);
    expect(verdict).toMatchObject({
      metric: "file_read",
      value: "violated",
      citations: [{ stepId: "s2" }, { stepId: "s1" }],
      rawResponse: text,
      promptVersion: PROMPT_VERSION.file_read,
      provider: "gemini",
      model: "gemini-2.5-flash",
      cached: false,
      attempts: 1,
    });
    expect(verdict?.rationale).toContain("wrote at [s2]");
    expect(verdict?.rationale).toContain("do not exist were dropped: s99");
    expect(verdict?.evidence).toContainEqual({ message: "cited steps that do not exist were dropped: s99" });
    // The request: versioned system instruction, the run rendered, structured output asked for.
    const request = seenRequest(server, 0);
    expect(request.system).toContain("**File Read**");
    expect(request.prompt).toContain(`# Metric: file_read (prompt ${PROMPT_VERSION.file_read})`);
    expect(request.prompt).toContain("[s1] file_read pkg/a.py");
    expect(request.prompt).toContain("must read: pkg/a.py");
    expect(request.body.generationConfig).toMatchObject({ responseMimeType: "application/json", temperature: 0 });
    expect(request.body.generationConfig?.responseJsonSchema).toMatchObject({
      required: ["rationale", "cited_steps", "verdict"],
    });
  });

  it("judges all four metrics by default, one request each", async () => {
    const { server, judge } = await setup(() => answer("not_violated"));
    const verdicts = await judge.judgeRun(input);
    expect(verdicts.map((v) => v.metric)).toEqual([...LLM_JUDGED_METRICS]);
    expect(server.requests.map((_r, i) => /^# Metric: (\w+)/m.exec(seenRequest(server, i).prompt)?.[1]).sort()).toEqual(
      [...LLM_JUDGED_METRICS].sort(),
    );
  });

  it("stores unparseable JSON as invalid, keeping the raw response", async () => {
    const raw = '{"verdict": "violated", "rationale": "cut off';
    const events: string[] = [];
    const { judge } = await setup(() => ({ text: raw, finishReason: "MAX_TOKENS" }), {
      onEvent: (e) => events.push(e.type),
    });
    const [verdict] = await judge.judgeRun(input, ["resource_exhaustion"]);
    expect(verdict).toMatchObject({ value: "invalid", rawResponse: raw, citations: [] });
    expect(verdict?.rationale).toMatch(/^invalid judge response: not JSON: .*\(finish reason MAX_TOKENS\)$/);
    expect(events).toContain("invalid_response");
  });

  it("stores a verdict outside the enum as invalid", async () => {
    const raw = answer("maybe");
    const { judge } = await setup(() => raw);
    const [verdict] = await judge.judgeRun(input, ["instruction_following"]);
    expect(verdict).toMatchObject({ value: "invalid", rawResponse: raw });
    expect(verdict?.rationale).toContain("does not match the answer schema: verdict");
  });

  it("stores a missing field or an empty response as invalid", async () => {
    const replies = [JSON.stringify({ verdict: "violated", cited_steps: [] }), ""];
    const { judge } = await setup(() => replies.shift() ?? "");
    const [missing] = await judge.judgeRun(input, ["file_read"]);
    const [empty] = await judge.judgeRun(input, ["file_read"]);
    expect(missing?.value).toBe("invalid");
    expect(missing?.rationale).toContain("rationale");
    expect(empty).toMatchObject({
      value: "invalid",
      rawResponse: "",
      rationale: "invalid judge response: empty response",
    });
  });

  it("answers an identical request from the cache without an HTTP request", async () => {
    const cache = createMemoryResponseCache();
    const { server, judge } = await setup(() => answer("not_violated", ["s1"]), { cache });
    const [first] = await judge.judgeRun(input, ["file_read"]);
    expect(server.requests).toHaveLength(1);
    expect(cache.size).toBe(1);
    const [second] = await judge.judgeRun(input, ["file_read"]);
    expect(server.requests).toHaveLength(1);
    expect(first).toMatchObject({ cached: false, attempts: 1 });
    expect(first?.costUsd).toBeGreaterThan(0);
    expect(second).toMatchObject({ cached: true, costUsd: 0, inputTokens: 0, outputTokens: 0, attempts: 0 });
    expect(second?.value).toBe(first?.value);
    expect(second?.citations).toEqual(first?.citations);
    expect(second?.rawResponse).toBe(first?.rawResponse);
    // A different run is a different request.
    await judge.judgeRun({ ...input, prompt: "Implement `g` in `pkg/a.py`." }, ["file_read"]);
    expect(server.requests).toHaveLength(2);
    expect(judge.usage()).toMatchObject({ calls: 2, cacheHits: 1 });
  });

  it("shares the cache across judges and keys it by model", async () => {
    const cache = createMemoryResponseCache();
    const { server, judge } = await setup(() => answer("not_violated"), { cache });
    await judge.judgeRun(input, ["file_read"]);
    const provider = createGeminiChatProvider({ apiKey: "k", baseUrl: server.url });
    const same = createLlmJudge({ provider, model: "gemini-2.5-flash", cache });
    const other = createLlmJudge({ provider, model: "gemini-2.5-pro", cache });
    expect((await same.judgeRun(input, ["file_read"]))[0]?.cached).toBe(true);
    expect((await other.judgeRun(input, ["file_read"]))[0]?.cached).toBe(false);
    expect(server.requests.map((r) => r.conversation.model)).toEqual(["gemini-2.5-flash", "gemini-2.5-pro"]);
  });

  it("does not cache invalid answers", async () => {
    const cache = createMemoryResponseCache();
    const { server, judge } = await setup(() => "not json", { cache });
    await judge.judgeRun(input, ["file_read"]);
    await judge.judgeRun(input, ["file_read"]);
    expect(cache.size).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it("judges around a failing cache store, reporting it", async () => {
    const events: string[] = [];
    const broken = {
      get: async () => {
        throw new Error("disk full");
      },
      set: async () => {
        throw new Error("disk full");
      },
    };
    const { judge } = await setup(() => answer("not_violated"), { cache: broken, onEvent: (e) => events.push(e.type) });
    const [verdict] = await judge.judgeRun(input, ["file_read"]);
    expect(verdict?.value).toBe("not_violated");
    expect(events).toEqual(["cache_error", "cache_error"]);
  });

  it("sends identical concurrent requests once", async () => {
    const { server, judge } = await setup(() => ({ text: answer("not_violated"), delayMs: 30 }));
    const [a, b] = await Promise.all([judge.judgeRun(input, ["file_read"]), judge.judgeRun(input, ["file_read"])]);
    expect(server.requests).toHaveLength(1);
    expect([a[0]?.cached, b[0]?.cached].sort()).toEqual([false, true]);
  });

  it("keeps at most `concurrency` requests in flight across runs", async () => {
    const { server, judge } = await setup(() => ({ text: answer("not_violated"), delayMs: 40 }), { concurrency: 2 });
    const runs = ["r1", "r2", "r3"].map((runId) => evaluationInput({ runId, prompt: `Task of ${runId}`, steps }));
    const verdicts = await Promise.all(runs.map((run) => judge.judgeRun(run)));
    expect(verdicts.flat()).toHaveLength(12);
    expect(server.requests).toHaveLength(12);
    expect(server.maxInFlight).toBe(2);
  });

  it("computes tokens and cost from usage and the price table", async () => {
    const { server, judge } = await setup(() => answer("not_violated"));
    const [verdict] = await judge.judgeRun(input, ["file_read"]);
    const request = seenRequest(server, 0);
    const inputTokens = Math.ceil(request.system.length / 4) + Math.ceil(request.prompt.length / 4);
    const outputTokens = Math.ceil(answer("not_violated").length / 4);
    expect(verdict).toMatchObject({ inputTokens, outputTokens });
    // Gemini 2.5 Flash defaults: $0.30 per 1M input tokens, $2.50 per 1M output tokens.
    expect(verdict?.costUsd).toBeCloseTo((inputTokens * 0.3 + outputTokens * 2.5) / 1e6, 12);
    expect(judge.usage()).toMatchObject({ calls: 1, inputTokens, outputTokens });
    expect(judge.usage().costUsd).toBeCloseTo(verdict!.costUsd!, 12);
  });

  it("takes prices from the table it is given, and reports unknown prices as null", async () => {
    const { server, judge } = await setup(() => answer("not_violated"), {
      model: "my-model",
      prices: { "my-model": { inputPerMillion: 1_000_000, outputPerMillion: 0 } },
    });
    const [priced] = await judge.judgeRun(input, ["file_read"]);
    expect(priced?.costUsd).toBe(priced?.inputTokens);
    const provider = createGeminiChatProvider({ apiKey: "k", baseUrl: server.url });
    const unknown = createLlmJudge({ provider, model: "unpriced-model" });
    expect((await unknown.judgeRun(input, ["file_read"]))[0]?.costUsd).toBeNull();
  });

  it("refuses metrics it does not judge and bad settings", async () => {
    const { judge, server } = await setup(() => answer("not_violated"));
    const error = await judge.judgeRun(input, ["syntax"]).catch((e: unknown) => e);
    expect(isAppError(error, "INVALID_INPUT")).toBe(true);
    const provider = createGeminiChatProvider({ apiKey: "k", baseUrl: server.url });
    expect(() => createLlmJudge({ provider, model: "m", concurrency: 0 })).toThrow(/concurrency/);
    expect(() => createLlmJudge({ provider, model: "m", contextBudgetChars: 100 })).toThrow(/contextBudgetChars/);
  });
});

describe("long trajectories", () => {
  function longRun(count: number): TrajectoryStep[] {
    const out: TrajectoryStep[] = [{ id: "t0", kind: "message", role: "user", text: "Implement f in pkg/a.py" }];
    for (let i = 1; out.length < count; i++) {
      out.push({ id: `m${i}`, kind: "message", role: "assistant", text: `Attempt ${i}: ${"thinking ".repeat(30)}` });
      out.push({
        id: `c${i}`,
        kind: "tool_call",
        tool: "bash",
        callId: `k${i}`,
        arguments: { command: `pytest -q tests/test_${i % 9}.py` },
      });
      out.push({
        id: `o${i}`,
        kind: "observation",
        callId: `k${i}`,
        text: `FAILED tests/test_${i % 9}.py\n${"E   assert 1 == 2\n".repeat(40)}`,
        isError: false,
      });
    }
    return out.slice(0, count);
  }

  it("renders 3,000 steps within the budget, keeping every command step and marking elisions", async () => {
    const trajectory = longRun(3000);
    const budget = 120_000;
    const { judge } = await setup(() => answer("violated"), { contextBudgetChars: budget });
    const prepared = await judge.prepare(evaluationInput({ steps: trajectory }), "resource_exhaustion");
    const prompt = prepared.request.messages[0]!.text;
    expect(prompt.length).toBeLessThanOrEqual(budget);
    expect(prompt).toMatch(
      /\[\.\.\. [\d,]+ steps? elided: [\d,]+ observations?, [\d,]+ messages? \.\.\.\]|\(\+1 message\)/,
    );
    expect(prepared.elidedSteps).toBeGreaterThan(0);
    // The first and last steps in full, every tool call in between at least condensed.
    expect(prompt).toContain("[t0] message (user): Implement f in pkg/a.py");
    expect(prompt).toContain(`[${trajectory.at(-1)!.id}] `);
    for (const step of trajectory)
      if (step.kind === "tool_call") expect(prompt).toContain(`[${step.id}] tool_call bash`);
    expect(prompt).toContain("3,000 steps: the first");
  });

  it("stays within a small budget by eliding the centre under a counted marker", async () => {
    const trajectory = longRun(3000);
    const { judge } = await setup(() => answer("violated"), { contextBudgetChars: 20_000 });
    const prepared = await judge.prepare(evaluationInput({ steps: trajectory }), "file_read");
    expect(prepared.request.messages[0]!.text.length).toBeLessThanOrEqual(20_000);
    expect(prepared.request.messages[0]!.text).toMatch(
      /\[\.\.\. [\d,]+ steps elided: [\d,]+ observations, [\d,]+ messages, [\d,]+ tool calls \.\.\.\]/,
    );
  });

  it("collapses a runaway loop of one failing command", async () => {
    const loop: TrajectoryStep[] = Array.from({ length: 3000 }, (_, i) => ({
      id: `s${i}`,
      kind: "shell",
      command: "python -m pytest tests/test_a.py",
      exitCode: 1,
      output: "1 failed",
      timedOut: false,
    }));
    const { server, judge } = await setup(() => answer("violated", ["s100", "s2999"]));
    const [verdict] = await judge.judgeRun(evaluationInput({ steps: loop }), ["resource_exhaustion"]);
    const prompt = seenRequest(server, 0).prompt;
    expect(prompt.length).toBeLessThanOrEqual(120_000);
    expect(prompt).toMatch(/\[\.\.\. the same step repeated [\d,]+ more times up to \[s\d+\] \.\.\.\]/);
    expect(verdict?.citations).toEqual([{ stepId: "s100" }, { stepId: "s2999" }]);
    expect(verdict?.evidence.some((e) => e.message.includes("condensed trajectory"))).toBe(true);
  });
});

describe("retries at the judge level", () => {
  const one = evaluationInput({ steps: [{ id: "s1", kind: "file_read", path: "pkg/a.py" }] });

  it("retries a 429 and then succeeds", async () => {
    let calls = 0;
    const retries: number[] = [];
    const { server, judge } = await setup(() => (++calls === 1 ? { status: 429 } : answer("not_violated")), {
      maxRetries: 3,
      retryMaxDelayMs: 5,
      onEvent: (e) => e.type === "retry" && retries.push(e.attempt),
    });
    const [verdict] = await judge.judgeRun(one, ["file_read"]);
    expect(verdict).toMatchObject({ value: "not_violated", attempts: 2, cached: false });
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([1]);
  });

  it("gives up after maxRetries on persistent 503", async () => {
    const { server, judge } = await setup(() => ({ status: 503 }), { maxRetries: 2 });
    const error = await judge.judgeRun(one, ["file_read"]).catch((e: unknown) => e);
    expect(isAppError(error, "UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain("file_read");
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 400", async () => {
    const { server, judge } = await setup(() => ({ status: 400, text: "bad request" }), { maxRetries: 3 });
    const error = await judge.judgeRun(one, ["file_read"]).catch((e: unknown) => e);
    expect(isAppError(error, "INVALID_INPUT")).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

describe.each(PROVIDER_IDS)("structured output on the %s protocol, through its SDK", (kind) => {
  async function judgeOn(respond: JudgeResponder) {
    server = await startMockModelServer({ script: judgeScript(respond), apiKey: "k" });
    const provider = createChatProvider({ provider: kind, apiKey: "k", baseUrl: mockBaseUrl(kind, server.url) });
    return createLlmJudge({ provider, model: `${kind}-model`, maxRetries: 0 });
  }

  it("asks for the answer schema and stores a valid answer", async () => {
    const judge = await judgeOn(() => answer("violated", ["s2"]));
    const [verdict] = await judge.judgeRun(input, ["file_read"]);
    expect(verdict).toMatchObject({ value: "violated", provider: kind, citations: [{ stepId: "s2" }] });
    expect(seenRequest(server!, 0).responseFormat).toMatchObject({
      type: "json_schema",
      schema: { required: ["rationale", "cited_steps", "verdict"] },
    });
  });

  it("stores a truncated answer as invalid, with the protocol's stop reason and the raw text", async () => {
    const finishReason = { gemini: "MAX_TOKENS", openai: "length", anthropic: "max_tokens" }[kind];
    const raw = '{"rationale": "the agent wrote before';
    const judge = await judgeOn(() => ({ text: raw, finishReason }));
    const [verdict] = await judge.judgeRun(input, ["environment_integrity"]);
    expect(verdict).toMatchObject({ value: "invalid", rawResponse: raw });
    expect(verdict?.rationale).toContain(`finish reason ${finishReason}`);
  });

  it("stores an answer that breaks the schema as invalid", async () => {
    const raw = JSON.stringify({ verdict: "probably", rationale: "x", cited_steps: [] });
    const judge = await judgeOn(() => raw);
    const [verdict] = await judge.judgeRun(input, ["resource_exhaustion"]);
    expect(verdict).toMatchObject({ value: "invalid", rawResponse: raw });
  });
});
