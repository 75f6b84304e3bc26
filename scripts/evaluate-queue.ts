/**
 * `evaluate --queue URL` (or STUDIO_QUEUE_URL): the studio's side of a distributed evaluation. The
 * runs lacking the judge's verdicts, chosen on this machine's database as a local evaluation
 * chooses them, become jobs on the judge's queue (lib/remote/evaluation-queue.ts: batches of runs
 * for the rule judge, one run each on the provider's rate-limited queue for an LLM judge); worker
 * machines judge them and post the verdicts to the studio. This process follows the batch
 * (queue-batch.ts) and reports each run as its job ends, so the progress line is the local one.
 */
import { createDb, databasePathFromEnv } from "@/db/client";
import { runsToEvaluate } from "@/db/queries/evaluation";
import { ensureJudge } from "@/db/queries/verdicts";
import { createProgress } from "@/lib/cli/progress";
import type { CliIo } from "@/lib/cli/run-cli";
import { loadEnv } from "@/lib/config/env";
import { ruleRunJudge } from "@/lib/judge/evaluate-runs";
import type { JudgeDefinition } from "@/lib/judge/llm/judge-definitions";
import { llmJudgeRows } from "@/lib/judge/llm/llm-run-judge";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { onStopSignals, signalExitCode } from "@/lib/process/signals";
import {
  EVAL_JOB_OPTIONS,
  JudgeRowSchema,
  EvalJobResultSchema,
  evalJobId,
  evalQueueOf,
  RULE_RUNS_PER_JOB,
  type EvalJob,
  type EvalJudge,
  type JudgeRow,
} from "@/lib/remote/evaluation-queue";
import { followQueuedBatch } from "./queue-batch";

/**
 * The runs lacking the judge's verdicts, chosen as a local evaluation chooses them, judged by
 * worker machines (evaluateQueued below); the same progress line and summary as a local evaluation.
 * No model is opened here: the workers hold the keys.
 */
export async function evaluateOnQueue(
  args: {
    url: string;
    /** The LLM judge (with --model and --base-url applied), or null for the rule judge. */
    definition: JudgeDefinition | null;
    mock: boolean;
    runs?: string;
    force: boolean;
    json: boolean;
  },
  io: CliIo,
): Promise<number> {
  const { url, definition } = args;
  const env = loadEnv(io.env);
  const db = createDb(databasePathFromEnv(io.env));
  const stop = new AbortController();
  const dispose = onStopSignals((signal) => stop.abort(signal));
  try {
    const judge: EvalJudge = definition ? { kind: "llm", definition, mock: args.mock } : { kind: "rule" };
    const rows = definition
      ? llmJudgeRows(definition, args.mock)
      : [...ruleRunJudge(0, { hasArtifact: () => false }).judgeIdByMetric.keys()].map((metric) => ({
          metric,
          identity: RULE_JUDGE,
        }));
    const judgeRows = rows.map((row) => JudgeRowSchema.parse(row));
    const judgeIdByMetric = new Map(judgeRows.map((row) => [row.metric, ensureJudge(db, row.identity)]));
    const pending = runsToEvaluate(db, judgeIdByMetric, { pattern: args.runs, force: args.force });
    const label = definition ? `${definition.id} judge (${judgeRows[0]!.identity.model})` : "rule judge";
    const progress = createProgress("evaluate", pending.length, io.stderr);
    const started = Date.now();
    const result = await evaluateQueued({
      url,
      judge,
      rows: judgeRows,
      runIds: pending,
      force: args.force,
      rateLimit: definition ? env.STUDIO_QUEUE_RATE_LIMITS?.get(definition.provider) : undefined,
      signal: stop.signal,
      onQueued: (batch, jobs, following) =>
        io.stderr.write(
          `batch ${batch}: ${pending.length} run(s) in ${jobs} job(s) queued on ${url}, ${following} job(s) already on the queue\n`,
        ),
      onRun: (runId, error) => {
        if (error) io.stderr.write(`error: run ${runId}: ${error}\n`);
        progress.tick(error !== undefined);
      },
    });
    if (pending.length > 0) progress.finish();
    const seconds = (Date.now() - started) / 1000;
    const failed = result.failures.length + result.cancelled;
    const summary = {
      judge: label,
      evaluated: pending.length - failed,
      failed,
      violations: Object.fromEntries(result.violations),
      usage: null,
      seconds,
      queued: {
        stored: result.stored,
        unchanged: result.unchanged,
        already: result.already,
        cancelled: result.cancelled,
      },
    };
    if (args.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
    else {
      io.stdout.write(
        `${summary.evaluated} queued run(s) evaluated by the ${label}: ${result.stored} stored, ${result.unchanged} already stored as posted, ` +
          `${result.already} judged meanwhile elsewhere, ${result.failures.length} failed, ${result.cancelled} cancelled, in ${seconds.toFixed(1)}s\n`,
      );
      for (const [metric, n] of [...result.violations].sort())
        io.stdout.write(`  ${metric.padEnd(24)} ${n} violated\n`);
    }
    const reason = stop.signal.reason as NodeJS.Signals | undefined;
    return stop.signal.aborted && reason ? signalExitCode(reason) : failed > 0 ? 1 : 0;
  } finally {
    dispose();
    db.$client.close();
  }
}

export interface QueuedEvaluation {
  url: string;
  judge: EvalJudge;
  rows: JudgeRow[];
  runIds: readonly string[];
  force: boolean;
  rateLimit?: { max: number; durationMs: number };
  signal: AbortSignal;
  onQueued?(batch: string, jobs: number, alreadyQueued: number): void;
  /** Each run as its job ends, with its error if it was not judged. */
  onRun?(runId: string, error?: string): void;
}

export interface QueuedEvaluationOutcomes {
  /** Verdicts stored by this batch. */
  stored: number;
  /** Posted again with the verdicts already stored (a retried job). */
  unchanged: number;
  /** Judged meanwhile by another evaluation (without --force, left as it was). */
  already: number;
  /** Judged with an error, or in a job that failed for good. */
  failures: { runId: string; error: string }[];
  cancelled: number;
  violations: Map<string, number>;
}

export async function evaluateQueued(options: QueuedEvaluation): Promise<QueuedEvaluationOutcomes> {
  const outcomes: QueuedEvaluationOutcomes = {
    stored: 0,
    unchanged: 0,
    already: 0,
    failures: [],
    cancelled: 0,
    violations: new Map(),
  };
  const perJob = options.judge.kind === "rule" ? RULE_RUNS_PER_JOB : 1;
  const jobs: { id: string; data: Omit<EvalJob, "batch"> }[] = [];
  for (let i = 0; i < options.runIds.length; i += perJob) {
    const data = {
      judge: options.judge,
      rows: options.rows,
      force: options.force,
      runIds: options.runIds.slice(i, i + perJob),
    };
    jobs.push({ id: evalJobId(data), data });
  }
  const runsOf = new Map(jobs.map((job) => [job.id, job.data.runIds]));
  const failed = (runId: string, error: string) => {
    outcomes.failures.push({ runId, error });
    options.onRun?.(runId, error);
  };

  await followQueuedBatch<EvalJob>({
    url: options.url,
    queueName: evalQueueOf(options.judge),
    jobName: "evaluate",
    jobOptions: EVAL_JOB_OPTIONS,
    jobs,
    rateLimit: options.rateLimit,
    signal: options.signal,
    onQueued: options.onQueued,
    onCompleted(jobId, value) {
      const result = EvalJobResultSchema.safeParse(value);
      const runIds = runsOf.get(jobId) ?? [];
      if (!result.success) return runIds.forEach((runId) => failed(runId, "the job finished without a result"));
      for (const run of result.data.runs) {
        if (run.outcome === "failed") {
          failed(run.runId, `${run.error ?? "failed"} (on ${result.data.worker})`);
          continue;
        }
        if (run.outcome === "stored") outcomes.stored += 1;
        else if (run.outcome === "unchanged") outcomes.unchanged += 1;
        else outcomes.already += 1;
        for (const metric of run.violated) outcomes.violations.set(metric, (outcomes.violations.get(metric) ?? 0) + 1);
        options.onRun?.(run.runId);
      }
    },
    onFailed(jobId, reason, cancelled) {
      for (const runId of runsOf.get(jobId) ?? []) {
        if (cancelled) {
          outcomes.cancelled += 1;
          options.onRun?.(runId, "cancelled");
        } else failed(runId, reason);
      }
    },
  });
  return outcomes;
}
