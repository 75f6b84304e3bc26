/**
 * npm run evaluate: scores runs that lack this judge's verdicts (resumable: judged runs are skipped unless --force).
 * `--judge rule` is the deterministic judge; any other id names an LLM judge definition
 * (lib/judge/llm/judge-definitions.ts: `gemini`, `anthropic`, `openai` built in, more from
 * `--judges FILE` or STUDIO_JUDGES), which asks its provider for the four LLM-judged metrics;
 * `--model` and `--base-url` override the definition's; `--mock` starts a local server speaking that
 * provider's HTTP protocol with the scripted judge (offline demo and tests). Each run's verdicts are
 * stored in one transaction. The rule judge runs in `--workers` threads (evaluate-workers.ts; one
 * per core by default) when there are enough runs to repay starting them.
 * `--task-checks` measures task completion instead (DESIGN.md 2b, lib/task-check): each run lacking
 * a check (all with --force) is checked in a sandbox on a copy of its final workspace.
 */
import os from "node:os";
import { createDb, databasePathFromEnv, type Db } from "@/db/client";
import { evaluationStore, runsToEvaluate } from "@/db/queries/evaluation";
import { createDbJudgeCache } from "@/db/queries/judge-cache";
import { loadTaskCheckInput, runsToCheck, storeTaskCheck } from "@/db/queries/task-checks";
import { ensureJudge } from "@/db/queries/verdicts";
import { cliCommand, integerOption, parseCli, textOption, type Command } from "@/lib/cli/args";
import type { OptionValues } from "@commander-js/extra-typings";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { loadEnv } from "@/lib/config/env";
import { AppError } from "@/lib/errors/app-error";
import { evaluateRuns, ruleRunJudge, type RunJudge } from "@/lib/judge/evaluate-runs";
import { availableJudges, findJudge, type JudgeDefinition } from "@/lib/judge/llm/judge-definitions";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { checkRuns, passAt1 } from "@/lib/task-check/check-runs";
import { DEFAULT_TASK_CHECK_TIMEOUT_MS } from "@/lib/task-check/schema";
import { evaluateRunsInWorkers } from "./evaluate-workers";
import { evaluateOnQueue } from "./evaluate-queue";
import { llmRunJudge } from "@/lib/judge/llm/llm-run-judge";

/** The options that choose a judge, shared by evaluate and judge-check. */
export const withJudgeOptions = <A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) =>
  command
    .addOption(
      textOption(
        "--judge <judge>",
        "rule: the deterministic judge; gemini, anthropic, openai or a judge of --judges: an LLM judge",
      ).default("rule"),
    )
    .addOption(textOption("--judges <file>", "a JSON file of LLM judge definitions (default: $STUDIO_JUDGES)"))
    .option("--mock", "an LLM judge against a local scripted model speaking its provider's protocol (offline)")
    .addOption(textOption("--model <model>", "the LLM judge's model (overrides its definition)"))
    .addOption(
      textOption(
        "--base-url <url>",
        "the LLM judge's endpoint, e.g. an OpenAI-compatible server (overrides its definition)",
      ),
    )
    .addOption(
      integerOption(
        "--concurrency <n>",
        "runs judged at once in one thread (default: 1 for the rule judge, whose work is all CPU; 4 for LLM judges and task checks)",
        { min: 1, max: 32 },
      ),
    );

/** The default of --concurrency for work that mostly waits (a model, a test run). */
const WAITING_CONCURRENCY = 4;

/**
 * Runs judged at once in one thread unless --concurrency says: the rule judge is CPU work, where
 * one at a time is fastest (6.1 s against 7.4 s at 4 on the 248 DevEval runs); LLM judges wait.
 */
export const judgeConcurrency = (args: { judge: string; concurrency?: number }) =>
  args.concurrency ?? (args.judge === "rule" ? 1 : WAITING_CONCURRENCY);

/**
 * Fewer runs than this are judged in this thread: starting the threads (their bundle, a parser
 * and a CPython helper each, the originals analyzed once per thread) costs seconds. On the 248
 * DevEval runs two threads were slower than one (10-14 s against 8-9 s, load average 3-4); on
 * four times as many, faster (bench:evaluate: 74 against 51 runs/s).
 */
const WORKERS_FROM_RUNS = 1000;

export const cli = () =>
  withJudgeOptions(cliCommand("npm run evaluate --", "Scores the runs that lack this judge's verdicts (resumable)."))
    .addOption(textOption("--runs <pattern>", "only runs whose id matches this pattern (* matches any text)"))
    .option("--force", "judge again runs this judge already judged")
    .addOption(
      integerOption(
        "--workers <n>",
        `--judge rule: threads judging runs in parallel when there are ${WORKERS_FROM_RUNS} or more (default: one per core; 0: all in this thread)`,
        { min: 0, max: 32 },
      ).default(os.availableParallelism()),
    )
    .addOption(
      textOption(
        "--queue <url>",
        "queue the runs on this Redis for worker machines (npm run worker -- --queue ...) and follow them (default: $STUDIO_QUEUE_URL)",
        { pattern: /^rediss?:\/\/\S+$/, expected: "a redis:// or rediss:// URL" },
      ),
    )
    .option("--task-checks", "check task completion (DESIGN.md 2b) instead of judging misbehaviors")
    .addOption(
      textOption(
        "--python <path>",
        "--task-checks: the Python that runs the tests (a virtualenv's, with the repository's dependencies)",
      ).default("python3"),
    )
    .addOption(
      integerOption("--task-timeout <seconds>", "--task-checks: time limit of one check", {
        min: 1,
        max: 3600,
      }).default(DEFAULT_TASK_CHECK_TIMEOUT_MS / 1000),
    )
    .option("--json", "print the summary as JSON");

type Options = ReturnType<ReturnType<typeof cli>["opts"]>;

/** --task-checks: every run lacking a check (all with --force), results per subtask as pass@1. */
async function checkTasks(args: Options, io: CliIo): Promise<number> {
  const db = createDb(databasePathFromEnv(io.env));
  try {
    const pending = runsToCheck(db, { pattern: args.runs, force: args.force });
    const progress = createProgress("task checks", pending.length, io.stderr);
    const started = Date.now();
    const summary = await checkRuns(
      {
        load: (runId) => loadTaskCheckInput(db, runId),
        store: (runId, r, claimed) => storeTaskCheck(db, runId, r, claimed),
      },
      pending,
      {
        python: args.python,
        timeoutMs: args.taskTimeout * 1000,
        concurrency: Math.min(args.concurrency ?? WAITING_CONCURRENCY, 8),
        onRun: (runId, error) => {
          if (error) io.stderr.write(`error: run ${runId}: ${error}\n`);
          progress.tick(error !== undefined);
        },
      },
    );
    if (pending.length > 0) progress.finish();
    const seconds = (Date.now() - started) / 1000;
    const subtasks = Object.entries(summary.bySubtask)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([subtask, counts]) => ({ subtask, ...counts, passAt1: passAt1(counts) }));
    if (args.json) {
      const out = { checked: summary.checked, failed: summary.failures.length, subtasks, seconds };
      io.stdout.write(`${JSON.stringify(out)}\n`);
    } else {
      io.stdout.write(
        `${summary.checked} run(s) checked, ${summary.failures.length} failed, in ${seconds.toFixed(1)}s\n`,
      );
      for (const s of subtasks) {
        const rate = s.passAt1 === null ? "n/a" : `${(s.passAt1 * 100).toFixed(0)}%`;
        io.stdout.write(
          `  ${s.subtask.padEnd(24)} pass@1 ${rate.padStart(4)}  (${s.completed} completed, ${s.not_completed} not completed, ${s.not_checkable} not checkable)\n`,
        );
      }
    }
    return summary.failures.length > 0 ? 1 : 0;
  } finally {
    db.$client.close();
  }
}

/** The judge `--judge` names: the rule judge, or an LLM judge definition with its options applied. */
export async function openRunJudge(
  db: Db,
  args: Pick<Options, "judge" | "judges" | "model" | "baseUrl" | "mock" | "force" | "concurrency">,
  io: CliIo,
): Promise<RunJudge> {
  if (args.judge === "rule") {
    const store = evaluationStore(db);
    return ruleRunJudge(ensureJudge(db, RULE_JUDGE), { force: args.force, hasArtifact: store.hasArtifact });
  }
  return llmRunJudge({
    definition: judgeDefinition(args, io),
    env: io.env,
    mock: args.mock === true,
    concurrency: args.concurrency ?? WAITING_CONCURRENCY,
    cache: createDbJudgeCache(db),
    judgeIdOf: (identity) => ensureJudge(db, identity),
    onRetry: (line) => io.stderr.write(`${line}\n`),
  });
}

/** The LLM judge `--judge` names, with `--model` and `--base-url` applied. */
export function judgeDefinition(
  args: Pick<Options, "judge" | "judges" | "model" | "baseUrl">,
  io: CliIo,
): JudgeDefinition {
  const env = loadEnv(io.env);
  const judges = availableJudges({ file: args.judges ?? env.STUDIO_JUDGES, geminiModel: env.STUDIO_JUDGE_MODEL });
  const judge = findJudge(judges, args.judge);
  return { ...judge, ...(args.model ? { model: args.model } : {}), ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}) };
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  if (args.judge === "rule" && (args.mock || args.model || args.baseUrl))
    throw new AppError("INVALID_INPUT", "--mock, --model and --base-url go with an LLM judge, not --judge rule");
  if (args.taskChecks && args.queue)
    throw new AppError("INVALID_INPUT", "--task-checks run on this machine: --queue goes with judging");
  // Task checks stay on the studio even with STUDIO_QUEUE_URL: they run tests in its sandbox.
  if (args.taskChecks) return checkTasks(args, io);
  // The environment is read only when it names a queue: without one, evaluate runs as it always has.
  const queueUrl = args.queue ?? (io.env.STUDIO_QUEUE_URL ? loadEnv(io.env).STUDIO_QUEUE_URL : undefined);
  if (queueUrl)
    return evaluateOnQueue(
      {
        url: queueUrl,
        definition: args.judge === "rule" ? null : judgeDefinition(args, io),
        mock: args.mock === true,
        runs: args.runs,
        force: args.force === true,
        json: args.json === true,
      },
      io,
    );
  const db = createDb(databasePathFromEnv(io.env));
  const store = evaluationStore(db);
  const active = await openRunJudge(db, args, io);
  try {
    const pending = runsToEvaluate(db, active.judgeIdByMetric, { pattern: args.runs, force: args.force });
    const progress = createProgress("evaluate", pending.length, io.stderr);
    const started = Date.now();
    const onRun = (runId: string, error?: string) => {
      if (error) io.stderr.write(`error: run ${runId}: ${error}\n`);
      progress.tick(error !== undefined);
    };
    const dbPath = databasePathFromEnv(io.env);
    const inWorkers =
      args.judge === "rule" && args.workers > 0 && pending.length >= WORKERS_FROM_RUNS && dbPath !== ":memory:";
    const result = inWorkers
      ? await evaluateRunsInWorkers(
          db,
          { dbPath, judgeId: ensureJudge(db, RULE_JUDGE), force: args.force === true },
          pending,
          { workers: args.workers, onRun },
        )
      : await evaluateRuns(store, active, pending, { concurrency: judgeConcurrency(args), onRun });
    if (pending.length > 0) progress.finish();
    const seconds = (Date.now() - started) / 1000;
    const summary = {
      judge: active.label,
      evaluated: result.evaluated,
      failed: result.failures.length,
      violations: Object.fromEntries(result.violations),
      usage: active.usage?.() ?? null,
      seconds,
    };
    if (args.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
    else {
      io.stdout.write(
        `${summary.evaluated} run(s) evaluated by the ${active.label}, ${summary.failed} failed, in ${seconds.toFixed(1)}s\n`,
      );
      if (summary.usage) io.stdout.write(`  ${summary.usage}\n`);
      for (const [metric, n] of [...result.violations].sort())
        io.stdout.write(`  ${metric.padEnd(24)} ${n} violated\n`);
    }
    return summary.failed > 0 ? 1 : 0;
  } finally {
    await active.close();
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
