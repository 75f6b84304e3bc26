/**
 * The LLM judge on Gemini as the evaluation loop runs it (lib/judge/evaluate-runs.ts): the key and
 * endpoint from the environment, or a local server speaking Gemini's protocol with a scripted model
 * (`mock`, for the offline demo and tests), each metric's verdicts under its prompt version's judge row.
 */
import { AppError } from "@/lib/errors/app-error";
import { createGeminiProvider } from "@/lib/llm/gemini";
import { startMockGeminiServer, type MockGeminiServer } from "@/lib/llm/mock-gemini-server";
import { SCRIPTED_MODEL, scriptedJudgeResponder } from "./scripted-judge-responder";
import type { RunJudge } from "../evaluate-runs";
import { createLlmJudge, type LlmJudge } from "./llm-judge";
import { PROMPT_VERSION } from "./prompts";
import { LLM_JUDGED_METRICS, type JudgeCache } from "./schema";

export interface GeminiRunJudgeOptions {
  /** As lib/config/env.ts loads them. */
  env: { GEMINI_API_KEY?: string; GOOGLE_GEMINI_BASE_URL?: string; STUDIO_JUDGE_MODEL: string };
  mock: boolean;
  model?: string;
  concurrency: number;
  cache: JudgeCache;
  /** The judge row of an identity, created on first use (db/queries/verdicts.ts `ensureJudge`). */
  judgeIdOf(identity: LlmJudge["identity"] & { promptVersion: string }): number;
  onRetry?(line: string): void;
}

export async function geminiRunJudge(options: GeminiRunJudgeOptions): Promise<RunJudge> {
  let server: MockGeminiServer | null = null;
  let apiKey = options.env.GEMINI_API_KEY;
  let baseUrl = options.env.GOOGLE_GEMINI_BASE_URL;
  let model = options.model ?? options.env.STUDIO_JUDGE_MODEL;
  if (options.mock) {
    // The scripted model answers from the prompt alone; its verdicts are recorded as mock-gemini.
    apiKey = "mock-key";
    server = await startMockGeminiServer({ respond: scriptedJudgeResponder, apiKey });
    baseUrl = server.url;
    model = SCRIPTED_MODEL;
  }
  if (!apiKey)
    throw new AppError(
      "INVALID_INPUT",
      "--judge gemini needs GEMINI_API_KEY (or --mock for the offline scripted model)",
    );
  const llm = createLlmJudge({
    provider: createGeminiProvider({ apiKey, baseUrl }),
    model,
    concurrency: options.concurrency,
    cache: options.cache,
    onEvent: (event) => {
      if (event.type === "retry")
        options.onRetry?.(`retry: run ${event.runId} ${event.metric} attempt ${event.attempt}: ${event.error}`);
    },
  });
  const judgeIdByMetric = new Map(
    LLM_JUDGED_METRICS.map((metric) => [
      metric,
      options.judgeIdOf({ ...llm.identity, promptVersion: PROMPT_VERSION[metric] }),
    ]),
  );
  return {
    label: `${llm.identity.name} (${model})`,
    judgeIdByMetric,
    judge: (input) => llm.judgeRun(input),
    close: async () => server?.close(),
    usage() {
      const u = llm.usage();
      return `${u.calls} model call(s), ${u.cacheHits} answered from the cache, ${u.inputTokens} input and ${u.outputTokens} output tokens, $${u.costUsd.toFixed(4)}`;
    },
  };
}
