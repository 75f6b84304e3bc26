/**
 * `run-agents --queue URL` (or STUDIO_QUEUE_URL): the studio's side of a distributed batch. The
 * runs planned on this machine's database become one BullMQ job each on the provider's queue
 * (lib/remote/run-queue.ts); workers anywhere take them (scripts/queue-worker.ts) and push each
 * bundle to the studio. This process follows the batch (queue-batch.ts) and prints the same
 * progress line as a local batch, so the Jobs page shows it; a stop signal cancels the batch:
 * its waiting runs are removed from the queue and the workers stop its active ones.
 */
import type { ProviderName } from "@/lib/agents/agent-spec";
import { RUN_JOB_OPTIONS, RunJobResultSchema, runQueueName, type RunJob } from "@/lib/remote/run-queue";
import { followQueuedBatch } from "./queue-batch";

export interface QueuedBatch {
  url: string;
  provider: ProviderName;
  /** Everything of each job but the batch id, which is made here. */
  jobs: Omit<RunJob, "batch">[];
  rateLimit?: { max: number; durationMs: number };
  signal: AbortSignal;
  /** Told once the jobs are queued (the batch id, for the log) and of each run as it ends. */
  onQueued?(batch: string, added: number, alreadyQueued: number): void;
  onRun?(runId: string, outcome: { failed: boolean; note: string }): void;
}

export interface QueuedOutcomes {
  completed: number;
  failed: number;
  /** Could not be recorded after every attempt. */
  errors: number;
  /** Already in the studio when a worker took it. */
  already: number;
  /** Removed from the queue (or stopped on a worker) by a stop signal. */
  cancelled: number;
}

export async function runQueuedBatch(options: QueuedBatch): Promise<QueuedOutcomes> {
  const outcomes: QueuedOutcomes = { completed: 0, failed: 0, errors: 0, already: 0, cancelled: 0 };
  const finish = (runId: string, outcome: { failed: boolean; note: string }, count: keyof QueuedOutcomes) => {
    outcomes[count] += 1;
    options.onRun?.(runId, outcome);
  };
  // The job's id is the run's: a run queued twice is one job.
  await followQueuedBatch<RunJob>({
    url: options.url,
    queueName: runQueueName(options.provider),
    jobName: "run",
    jobOptions: RUN_JOB_OPTIONS,
    jobs: options.jobs.map((data) => ({ id: data.runId, data })),
    rateLimit: options.rateLimit,
    signal: options.signal,
    onQueued: options.onQueued,
    onCompleted(runId, value) {
      const result = RunJobResultSchema.safeParse(value);
      if (!result.success) return finish(runId, { failed: true, note: "finished without a result" }, "errors");
      const { outcome, worker } = result.data;
      if (outcome === "already in the studio") return finish(runId, { failed: false, note: outcome }, "already");
      finish(runId, { failed: outcome === "failed", note: `${outcome} on ${worker}` }, outcome);
    },
    onFailed: (runId, reason, cancelled) =>
      finish(runId, { failed: true, note: reason }, cancelled ? "cancelled" : "errors"),
  });
  return outcomes;
}
