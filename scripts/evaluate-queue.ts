/**
 * `evaluate --queue URL` (or STUDIO_QUEUE_URL): the studio's side of a distributed evaluation. The
 * runs lacking the judge's verdicts, chosen on this machine's database as a local evaluation
 * chooses them, become jobs on the judge's queue (lib/remote/evaluation-queue.ts: batches of runs
 * for the rule judge, one run each on the provider's rate-limited queue for an LLM judge); worker
 * machines judge them and post the verdicts to the studio. This process follows the batch
 * (queue-batch.ts) and reports each run as its job ends, so the progress line is the local one.
 */
import {
  EVAL_JOB_OPTIONS,
  EvalJobResultSchema,
  evalJobId,
  evalQueueOf,
  RULE_RUNS_PER_JOB,
  type EvalJob,
  type EvalJudge,
  type JudgeRow,
} from "@/lib/remote/evaluation-queue";
import { followQueuedBatch } from "./queue-batch";

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
