/**
 * The LLM judge: one structured-output request per (run, metric) from a versioned prompt, with
 * the run rendered within a character budget; answers validated (invalid ones kept as "invalid"
 * with the raw text); retries with backoff on retryable provider errors; a concurrency limit
 * across all calls of this judge; a response cache; token and cost accounting.
 */
import pLimit from "p-limit";
import { AppError } from "@/lib/errors/app-error";
import type { EvaluationInput } from "@/lib/judge/schema";
import { costOf, DEFAULT_PRICES } from "@/lib/llm/pricing";
import type { ChatProvider, ChatRequest } from "@/lib/llm/chat";
import { isRetryableLlmError } from "@/lib/llm/provider";
import { withRetry } from "@/lib/llm/retry";
import type { PriceTable } from "@/lib/llm/schema";
import type { MetricId } from "@/lib/metrics/catalog";
import { parseJudgeAnswer, verdictFromAnswer } from "./answer";
import { readCache, responseCacheKey, type CachedResponse, type ResponseCache } from "@/lib/llm/response-cache";
import { loadPrompt, PROMPT_VERSION } from "./prompts";
import { renderRun } from "./render-run";
import { JUDGE_ANSWER_JSON_SCHEMA, LLM_JUDGED_METRICS, type LlmJudgedMetric, type LlmVerdict } from "./schema";

export const DEFAULT_CONTEXT_BUDGET_CHARS = 120_000;
const MIN_CONTEXT_BUDGET_CHARS = 8_000;

export interface LlmJudgeOptions {
  provider: ChatProvider;
  model: string;
  /** Provider calls in flight at once, across every judgeRun of this judge (default 4). */
  concurrency?: number;
  /** Identical requests are answered from here; unset = no cache. */
  cache?: ResponseCache | null;
  /** Retries after the first attempt, for retryable errors only (default 4). */
  maxRetries?: number;
  /** Backoff: base and cap in ms (defaults 1,000 and 30,000), with jitter. */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** USD per 1M tokens by model, merged over DEFAULT_PRICES. */
  prices?: PriceTable;
  /** Characters of the user message per request (default 120,000; at least 8,000). */
  contextBudgetChars?: number;
  /** Generation settings (defaults 0 and 8,192: Gemini 2.5 counts thinking tokens in the output cap). */
  temperature?: number;
  maxOutputTokens?: number;
  /** Judge name recorded with verdicts (default `llm-<provider>`). */
  name?: string;
  /** The prompt version of every metric (`3` = `<metric>.v3`); unset = each metric's current one. */
  promptVersion?: number;
  /** Injected for tests. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Retries, cache hits and misses, for the caller's log. */
  onEvent?: (event: JudgeEvent) => void;
}

export type JudgeEvent =
  | { type: "cache_hit"; runId: string; metric: LlmJudgedMetric }
  | { type: "retry"; runId: string; metric: LlmJudgedMetric; attempt: number; delayMs: number; error: string }
  | { type: "invalid_response"; runId: string; metric: LlmJudgedMetric; reason: string }
  | { type: "cache_error"; runId: string; metric: LlmJudgedMetric; error: string };

export interface PreparedRequest {
  metric: LlmJudgedMetric;
  promptVersion: string;
  request: ChatRequest;
  cacheKey: string;
  elidedSteps: number;
}

export interface LlmJudgeUsage {
  calls: number;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface LlmJudge {
  /** What to record as the verdicts' judge (BundleVerdict.judge minus the per-verdict promptVersion). */
  readonly identity: { kind: "llm"; name: string; provider: string; model: string };
  /** Judges the given metrics (default: all four LLM-judged ones) of one run. */
  judgeRun(input: EvaluationInput, metrics?: readonly MetricId[]): Promise<LlmVerdict[]>;
  /** The exact request judgeRun would send (for inspection, dry runs and tests). */
  prepare(input: EvaluationInput, metric: LlmJudgedMetric): Promise<PreparedRequest>;
  /** Totals since the judge was created. */
  usage(): LlmJudgeUsage;
  /** The prompt version this judge uses for a metric (`file_read.v3`). */
  promptVersionOf(metric: LlmJudgedMetric): string;
}

function checkMetrics(metrics: readonly MetricId[]): LlmJudgedMetric[] {
  const unsupported = metrics.filter((m) => !(LLM_JUDGED_METRICS as readonly string[]).includes(m));
  if (unsupported.length > 0) {
    throw new AppError(
      "INVALID_INPUT",
      `the LLM judge does not score ${unsupported.join(", ")} (only ${LLM_JUDGED_METRICS.join(", ")})`,
    );
  }
  return [...new Set(metrics)] as LlmJudgedMetric[];
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The options' numbers with their defaults, refused when out of range. */
function checkOptions(options: LlmJudgeOptions): { concurrency: number; maxRetries: number; budget: number } {
  const concurrency = options.concurrency ?? 4;
  const maxRetries = options.maxRetries ?? 4;
  const budget = options.contextBudgetChars ?? DEFAULT_CONTEXT_BUDGET_CHARS;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new AppError("INVALID_INPUT", "concurrency must be a positive integer");
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw new AppError("INVALID_INPUT", "maxRetries must be a non-negative integer");
  if (!(budget >= MIN_CONTEXT_BUDGET_CHARS))
    throw new AppError("INVALID_INPUT", `contextBudgetChars must be at least ${MIN_CONTEXT_BUDGET_CHARS}`);
  return { concurrency, maxRetries, budget };
}

/** The prompt version a metric is judged with: the current one, or the version the options pin. */
export function promptVersionFor(options: Pick<LlmJudgeOptions, "promptVersion">, metric: LlmJudgedMetric): string {
  return options.promptVersion === undefined ? PROMPT_VERSION[metric] : `${metric}.v${options.promptVersion}`;
}

/** The request for one (run, metric): the metric's prompt with the run rendered within the budget. */
async function prepareRequest(
  options: LlmJudgeOptions,
  budget: number,
  input: EvaluationInput,
  metric: LlmJudgedMetric,
): Promise<PreparedRequest> {
  const prompt = await loadPrompt(metric, promptVersionFor(options, metric));
  const rendered = await renderRun(prompt.user, input, { budgetChars: budget });
  const request: ChatRequest = {
    model: options.model,
    system: prompt.system,
    messages: [{ role: "user", text: rendered.user }],
    tools: [],
    responseJsonSchema: JUDGE_ANSWER_JSON_SCHEMA as unknown as Record<string, unknown>,
    temperature: options.temperature ?? 0,
    maxOutputTokens: options.maxOutputTokens ?? 8192,
  };
  return {
    metric,
    promptVersion: prompt.promptVersion,
    request,
    cacheKey: responseCacheKey(prompt.promptVersion, options.provider.name, options.model, request),
    elidedSteps: rendered.trajectory.elidedSteps,
  };
}

/** A response with how it came: `reused` when from the cache or an identical request in flight. */
interface Answered {
  response: CachedResponse;
  attempts: number;
  reused: boolean;
}

/** The verdict of one answer; a reused answer costs nothing and took no time of its own. */
function verdictOf(
  prepared: PreparedRequest,
  answered: Answered,
  parsed: ReturnType<typeof parseJudgeAnswer>,
  stepIds: ReadonlySet<string>,
  usage: { inputTokens: number; outputTokens: number; costUsd: number | null },
  provider: string,
): LlmVerdict {
  const { response, attempts, reused } = answered;
  const verdict = verdictFromAnswer(parsed, stepIds);
  const evidence = [...verdict.evidence];
  if (prepared.elidedSteps > 0) {
    evidence.push({
      message: `the judge saw a condensed trajectory (${prepared.elidedSteps} steps elided or collapsed)`,
    });
  }
  return {
    metric: prepared.metric,
    value: verdict.value,
    rationale: verdict.rationale,
    citations: verdict.citations,
    evidence,
    rawResponse: response.text,
    ...usage,
    cached: reused,
    promptVersion: prepared.promptVersion,
    provider,
    model: response.model,
    latencyMs: reused ? 0 : response.latencyMs,
    attempts,
  };
}

/** What the judge keeps of a chat answer (and caches): its text, usage and stop reason. */
function answerOf(response: Awaited<ReturnType<ChatProvider["chat"]>>): CachedResponse {
  return {
    text: response.text,
    inputTokens: response.inputTokens,
    outputTokens: response.outputTokens,
    model: response.model,
    latencyMs: response.latencyMs,
    ...(response.finishReason ? { finishReason: response.finishReason } : {}),
  };
}

export function createLlmJudge(options: LlmJudgeOptions): LlmJudge {
  const { provider, model } = options;
  const { concurrency, maxRetries, budget } = checkOptions(options);
  const prices: PriceTable = { ...DEFAULT_PRICES, ...options.prices };
  const limit = pLimit(concurrency);
  const cache = options.cache ?? null;
  const inFlight = new Map<string, Promise<{ response: CachedResponse; attempts: number }>>();
  const totals: LlmJudgeUsage = { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const identity = {
    kind: "llm" as const,
    name: options.name ?? `llm-${provider.name}`,
    provider: provider.name,
    model,
  };
  const prepare = (input: EvaluationInput, metric: LlmJudgedMetric) => prepareRequest(options, budget, input, metric);

  /** One provider call with retries; each attempt takes a concurrency slot (backoff sleeps hold none). */
  function call(runId: string, prepared: PreparedRequest) {
    return withRetry(() => limit(() => provider.chat(prepared.request).then(answerOf)), {
      maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? 1000,
      maxDelayMs: options.retryMaxDelayMs ?? 30_000,
      isRetryable: isRetryableLlmError,
      random: options.random,
      sleep: options.sleep,
      onRetry: ({ attempt, delayMs, error }) =>
        options.onEvent?.({ type: "retry", runId, metric: prepared.metric, attempt, delayMs, error: errorText(error) }),
    }).then(({ value, attempts }) => ({ response: value, attempts }));
  }

  /** The cache only saves calls: a failing store is reported and judged around, never fatal. */
  const cacheFailed = (runId: string, metric: LlmJudgedMetric) => (error: unknown) => {
    options.onEvent?.({ type: "cache_error", runId, metric, error: errorText(error) });
    return null;
  };

  /** The answer from the cache, from an identical request in flight, or from a call of its own. */
  async function answer(runId: string, prepared: PreparedRequest): Promise<Answered> {
    const { metric, cacheKey } = prepared;
    const hit = cache ? await readCache(cache, cacheKey).catch(cacheFailed(runId, metric)) : null;
    if (hit) {
      totals.cacheHits++;
      options.onEvent?.({ type: "cache_hit", runId, metric });
      return { response: hit, attempts: 0, reused: true };
    }
    let pending = inFlight.get(cacheKey);
    const reused = pending !== undefined;
    if (!pending) {
      pending = call(runId, prepared);
      inFlight.set(cacheKey, pending);
      const forget = () => inFlight.delete(cacheKey);
      pending.then(forget, forget);
    }
    try {
      const { response, attempts } = await pending;
      return { response, attempts: reused ? 0 : attempts, reused };
    } catch (error) {
      const e = error instanceof AppError ? error : new AppError("INTERNAL", String(error));
      throw new AppError(e.code, `LLM judge (${runId}, ${metric}): ${e.message}`, { cause: error });
    }
  }

  async function judgeMetric(
    input: EvaluationInput,
    metric: LlmJudgedMetric,
    stepIds: ReadonlySet<string>,
  ): Promise<LlmVerdict> {
    const prepared = await prepare(input, metric);
    const answered = await answer(input.runId, prepared);
    const { response, attempts, reused } = answered;
    const parsed = parseJudgeAnswer(response.text, response.finishReason);
    if (!parsed.ok) options.onEvent?.({ type: "invalid_response", runId: input.runId, metric, reason: parsed.reason });
    // Only valid answers are cached: a rerun gets another chance at an invalid one.
    if (!reused && parsed.ok && cache)
      await cache.set(prepared.cacheKey, response).catch(cacheFailed(input.runId, metric));

    const inputTokens = reused ? 0 : response.inputTokens;
    const outputTokens = reused ? 0 : response.outputTokens;
    const costUsd = reused ? 0 : costOf(prices, [response.model, model], inputTokens, outputTokens);
    if (!reused) {
      totals.calls += attempts;
      totals.inputTokens += inputTokens;
      totals.outputTokens += outputTokens;
      totals.costUsd += costUsd ?? 0;
    }
    return verdictOf(prepared, answered, parsed, stepIds, { inputTokens, outputTokens, costUsd }, provider.name);
  }

  return {
    identity,
    prepare,
    usage: () => ({ ...totals }),
    promptVersionOf: (metric) => promptVersionFor(options, metric),
    async judgeRun(input, metrics = LLM_JUDGED_METRICS) {
      const wanted = checkMetrics(metrics);
      const stepIds = new Set(input.steps.map((s) => s.id));
      // Settle every metric before failing, so answers that did arrive still reach the cache.
      const results = await Promise.allSettled(wanted.map((metric) => judgeMetric(input, metric, stepIds)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) throw failed.reason;
      return results.map((r) => (r as PromiseFulfilledResult<LlmVerdict>).value);
    },
  };
}
