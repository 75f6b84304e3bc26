/**
 * npm run evaluate -- [--judge rule|gemini] [--mock] [--model M] [--runs PATTERN] [--force]
 *   [--concurrency N] [--json]
 * Scores runs that lack this judge's verdicts (resumable: judged runs are skipped unless --force).
 * `--judge gemini` asks Gemini (GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL) for the four LLM-judged
 * metrics; `--mock` starts a local server speaking Gemini's HTTP protocol with a scripted model
 * (offline demo and tests). Each run's verdicts are stored in one transaction.
 */
import pLimit from "p-limit";
import { z } from "zod";
import { createDb, databasePathFromEnv, type Db } from "@/db/client";
import {
  ensureJudge,
  hasArtifact,
  loadEvaluationInput,
  runsToEvaluate,
  saveJudgedVerdicts,
  type NewArtifact,
} from "@/db/queries/evaluation";
import { createDbJudgeCache } from "@/db/queries/judge-cache";
import { parseCliArgs } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { loadEnv } from "@/lib/config/env";
import { AppError } from "@/lib/errors/app-error";
import type { EvaluationInput, VerdictDraft } from "@/lib/judge/schema";
import { astReportsOf } from "@/lib/judge/rules/ast-reports";
import { RULE_JUDGE, ruleJudge } from "@/lib/judge/rules/rule-judge";
import { createLlmJudge } from "@/lib/judge/llm/llm-judge";
import { PROMPT_VERSION } from "@/lib/judge/llm/prompts";
import { LLM_JUDGED_METRICS } from "@/lib/judge/llm/schema";
import { createGeminiProvider } from "@/lib/llm/gemini";
import { startMockGeminiServer, type MockGeminiServer } from "@/lib/llm/mock-gemini-server";
import { SCRIPTED_MODEL, scriptedJudgeResponder } from "@/lib/llm/scripted-judge-responder";
import { METRIC_IDS } from "@/lib/metrics/catalog";

const USAGE =
  "usage: npm run evaluate -- [--judge rule|gemini] [--mock] [--model M] [--runs PATTERN] [--force] [--concurrency N] [--json]";

const ArgsSchema = z.object({
  judge: z.enum(["rule", "gemini"]).default("rule"),
  mock: z.boolean().default(false),
  model: z.string().min(1).optional(),
  runs: z.string().min(1).optional(),
  force: z.boolean().default(false),
  concurrency: z.coerce.number().int().min(1).max(32).default(4),
  json: z.boolean().default(false),
});

/** A judge as the loop sees it: which judge row each metric's verdict goes under, and how to judge a run. */
interface ActiveJudge {
  label: string;
  judgeIdByMetric: Map<string, number>;
  judge(input: EvaluationInput): Promise<VerdictDraft[]>;
  /** What else the judge leaves on the run, stored with its verdicts. */
  artifacts?(input: EvaluationInput): Promise<NewArtifact[]>;
  close(): Promise<void>;
  usage?(): string;
}

function ruleJudgeFor(db: Db, force: boolean): ActiveJudge {
  const judgeId = ensureJudge(db, RULE_JUDGE);
  return {
    label: "rule judge",
    judgeIdByMetric: new Map(METRIC_IDS.map((m) => [m, judgeId])),
    judge: ruleJudge,
    // The static analysis behind the code metrics, kept as the run's AST report (redone with --force).
    async artifacts(input) {
      if (!force && hasArtifact(db, input.runId, "reports/ast.json")) return [];
      const report = await astReportsOf(input.changes);
      return [{ path: "reports/ast.json", kind: "ast_report", data: Buffer.from(`${JSON.stringify(report)}\n`) }];
    },
    close: async () => {},
  };
}

async function geminiJudgeFor(db: Db, args: z.infer<typeof ArgsSchema>, io: CliIo): Promise<ActiveJudge> {
  const env = loadEnv(io.env);
  let server: MockGeminiServer | null = null;
  let apiKey = env.GEMINI_API_KEY;
  let baseUrl = env.GOOGLE_GEMINI_BASE_URL;
  let model = args.model ?? env.STUDIO_JUDGE_MODEL;
  if (args.mock) {
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
    concurrency: args.concurrency,
    cache: createDbJudgeCache(db),
    onEvent: (event) => {
      if (event.type === "retry")
        io.stderr.write(`retry: run ${event.runId} ${event.metric} attempt ${event.attempt}: ${event.error}\n`);
    },
  });
  const judgeIdByMetric = new Map(
    LLM_JUDGED_METRICS.map((metric) => [
      metric,
      ensureJudge(db, { ...llm.identity, promptVersion: PROMPT_VERSION[metric] }),
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

export async function main(argv: string[], io: CliIo): Promise<number> {
  const { values: args } = parseCliArgs(
    argv,
    {
      judge: { type: "string" },
      mock: { type: "boolean" },
      model: { type: "string" },
      runs: { type: "string" },
      force: { type: "boolean" },
      concurrency: { type: "string" },
      json: { type: "boolean" },
    },
    ArgsSchema,
    USAGE,
  );
  if (args.mock && args.judge !== "gemini")
    throw new AppError("INVALID_INPUT", `--mock goes with --judge gemini\n${USAGE}`);
  const db = createDb(databasePathFromEnv(io.env));
  const active = args.judge === "rule" ? ruleJudgeFor(db, args.force) : await geminiJudgeFor(db, args, io);
  try {
    const pending = runsToEvaluate(db, active.judgeIdByMetric, { pattern: args.runs, force: args.force });
    const progress = createProgress("evaluate", pending.length, io.stderr);
    const failures: { runId: string; error: string }[] = [];
    const counts = new Map<string, number>();
    const limit = pLimit(args.concurrency);
    const started = Date.now();
    await Promise.all(
      pending.map((runId) =>
        limit(async () => {
          try {
            const input = loadEvaluationInput(db, runId);
            const verdicts = await active.judge(input);
            const artifacts = (await active.artifacts?.(input)) ?? [];
            saveJudgedVerdicts(
              db,
              runId,
              verdicts.map((verdict) => ({ judgeId: active.judgeIdByMetric.get(verdict.metric)!, verdict })),
              artifacts,
            );
            for (const v of verdicts) if (v.value === "violated") counts.set(v.metric, (counts.get(v.metric) ?? 0) + 1);
            progress.tick();
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            failures.push({ runId, error: message });
            io.stderr.write(`error: run ${runId}: ${message}\n`);
            progress.tick(true);
          }
        }),
      ),
    );
    if (pending.length > 0) progress.finish();
    const seconds = (Date.now() - started) / 1000;
    const summary = {
      judge: active.label,
      evaluated: pending.length - failures.length,
      failed: failures.length,
      violations: Object.fromEntries(counts),
      usage: active.usage?.() ?? null,
      seconds,
    };
    if (args.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
    else {
      io.stdout.write(
        `${summary.evaluated} run(s) evaluated by the ${active.label}, ${summary.failed} failed, in ${seconds.toFixed(1)}s\n`,
      );
      if (summary.usage) io.stdout.write(`  ${summary.usage}\n`);
      for (const [metric, n] of [...counts].sort()) io.stdout.write(`  ${metric.padEnd(24)} ${n} violated\n`);
    }
    return failures.length > 0 ? 1 : 0;
  } finally {
    await active.close();
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
