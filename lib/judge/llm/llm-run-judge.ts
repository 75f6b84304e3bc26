/**
 * An LLM judge as the evaluation loop runs it (lib/judge/evaluate-runs.ts), on any provider: a
 * judge definition (provider, model, prompt version, temperature) reached through the one model
 * layer (lib/llm), or with `mock` the same provider's protocol served by the local mock server with
 * the scripted judge. Each metric's verdicts go under the judge row of (provider, model, prompt
 * version), so judges on different providers are compared side by side.
 */
import { openModel } from "@/lib/llm/endpoints";
import { promptScript } from "@/lib/llm/mock-server";
import type { RunJudge } from "../evaluate-runs";
import type { JudgeDefinition } from "./judge-definitions";
import { createLlmJudge, promptVersionFor, type LlmJudge } from "./llm-judge";
import { scriptedJudgeAnswer, scriptedModelOf } from "./scripted-judge-responder";
import { LLM_JUDGED_METRICS, type LlmJudgedMetric } from "./schema";
import type { ResponseCache } from "@/lib/llm/response-cache";

export interface LlmRunJudgeOptions {
  definition: JudgeDefinition;
  /** Where keys and endpoints are read (GEMINI_API_KEY, ANTHROPIC_BASE_URL, ...). */
  env: Record<string, string | undefined>;
  /** The scripted judge behind a local server speaking the definition's provider protocol. */
  mock: boolean;
  concurrency: number;
  cache: ResponseCache;
  /** The judge row of an identity, created on first use (db/queries/verdicts.ts `ensureJudge`). */
  judgeIdOf(identity: LlmJudge["identity"] & { promptVersion: string }): number;
  onRetry?(line: string): void;
  /** Per-attempt timeout (default 120 s). */
  timeoutMs?: number;
}

/**
 * The judge rows a definition's verdicts go under, one per metric, without opening its model: what
 * the studio expects of a worker judging for it (a worker whose judge opens under other rows
 * refuses the job).
 */
export function llmJudgeRows(
  definition: JudgeDefinition,
  mock: boolean,
): { metric: LlmJudgedMetric; identity: LlmJudge["identity"] & { promptVersion: string } }[] {
  const model = mock ? scriptedModelOf(definition.provider) : definition.model;
  return LLM_JUDGED_METRICS.map((metric) => ({
    metric,
    identity: {
      kind: "llm",
      name: `llm-${definition.provider}`,
      provider: definition.provider,
      model,
      promptVersion: promptVersionFor(definition, metric),
    },
  }));
}

export async function llmRunJudge(options: LlmRunJudgeOptions): Promise<RunJudge> {
  const { definition } = options;
  // The scripted model is recorded as `mock-<provider>`, so its verdicts say they were scripted.
  const mockModel = scriptedModelOf(definition.provider);
  const model = await openModel({
    provider: definition.provider,
    model: options.mock ? mockModel : definition.model,
    ...(definition.baseUrl ? { baseUrl: definition.baseUrl } : {}),
    ...(definition.apiKeyEnv ? { apiKeyEnv: definition.apiKeyEnv } : {}),
    ...(definition.jsonMode ? { jsonMode: definition.jsonMode } : {}),
    env: options.env,
    mock: options.mock ? promptScript(scriptedJudgeAnswer, mockModel) : null,
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  const llm = createLlmJudge({
    provider: model.provider,
    model: model.model,
    concurrency: options.concurrency,
    cache: options.cache,
    temperature: definition.temperature,
    ...(definition.promptVersion !== undefined ? { promptVersion: definition.promptVersion } : {}),
    onEvent: (event) => {
      if (event.type === "retry")
        options.onRetry?.(`retry: run ${event.runId} ${event.metric} attempt ${event.attempt}: ${event.error}`);
    },
  });
  const judgeIdByMetric = new Map(
    LLM_JUDGED_METRICS.map((metric) => [
      metric,
      options.judgeIdOf({ ...llm.identity, promptVersion: llm.promptVersionOf(metric) }),
    ]),
  );
  return {
    label: `${llm.identity.name} (${model.model}${definition.promptVersion === undefined ? "" : `, prompts v${definition.promptVersion}`})`,
    judgeIdByMetric,
    judge: (input) => llm.judgeRun(input),
    close: () => model.close(),
    usage() {
      const u = llm.usage();
      return `${u.calls} model call(s), ${u.cacheHits} answered from the cache, ${u.inputTokens} input and ${u.outputTokens} output tokens, $${u.costUsd.toFixed(4)}`;
    },
  };
}
