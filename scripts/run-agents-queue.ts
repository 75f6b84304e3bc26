/**
 * `run-agents --queue URL` (or STUDIO_QUEUE_URL): the studio's side of a distributed batch. The
 * runs planned on this machine's database become one BullMQ job each on the provider's queue
 * (lib/remote/run-queue.ts); workers anywhere take them (scripts/queue-worker.ts) and push each
 * bundle to the studio. This process follows the batch from the queue's events and prints the same
 * progress line as a local batch, so the Jobs page shows it; a stop signal cancels the batch:
 * its waiting runs are removed from the queue and the workers stop its active ones.
 */
import { randomBytes } from "node:crypto";
import { Job, Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import type { ProviderName } from "@/lib/agents/agent-spec";
import {
  cancelKeyOf,
  redisConnection,
  RUN_JOB_OPTIONS,
  RunJobResultSchema,
  runQueueName,
  type RunJob,
} from "@/lib/remote/run-queue";

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

/** How often the batch's unfinished jobs are checked directly, in case an event was missed. */
const RECONCILE_MS = 5_000;
const RECONCILE_BATCH = 200;
/** After a stop, how long active runs get to be stopped by their workers. */
const CANCEL_WAIT_MS = 60_000;

export async function runQueuedBatch(options: QueuedBatch): Promise<QueuedOutcomes> {
  const connection = redisConnection(options.url);
  const name = runQueueName(options.provider);
  const queue = new Queue(name, { connection });
  const events = new QueueEvents(name, { connection });
  const batch = `b${Date.now().toString(36)}${randomBytes(4).toString("hex")}`;
  const outcomes: QueuedOutcomes = { completed: 0, failed: 0, errors: 0, already: 0, cancelled: 0 };
  const pending = new Set(options.jobs.map((j) => j.runId));
  let wake: () => void = () => undefined;

  const finish = (runId: string, outcome: { failed: boolean; note: string }, count: keyof QueuedOutcomes) => {
    if (!pending.delete(runId)) return;
    outcomes[count] += 1;
    options.onRun?.(runId, outcome);
    wake();
  };
  const onCompleted = (runId: string, value: unknown) => {
    const result = RunJobResultSchema.safeParse(typeof value === "string" ? safeJson(value) : value);
    if (!result.success) return finish(runId, { failed: true, note: "finished without a result" }, "errors");
    const { outcome, worker } = result.data;
    if (outcome === "already in the studio") return finish(runId, { failed: false, note: outcome }, "already");
    finish(runId, { failed: outcome === "failed", note: `${outcome} on ${worker}` }, outcome);
  };
  const onFailed = (runId: string, reason: string) =>
    finish(runId, { failed: true, note: reason }, reason.startsWith("cancelled") ? "cancelled" : "errors");

  try {
    await events.waitUntilReady();
    events.on("completed", ({ jobId, returnvalue }) => onCompleted(jobId, returnvalue));
    // Emitted when a job has failed for good (a failed attempt with attempts left is retried, not failed).
    events.on("failed", ({ jobId, failedReason }) => {
      if (pending.has(jobId)) void settleIfFinal(jobId, failedReason);
    });
    if (options.rateLimit) await queue.setGlobalRateLimit(options.rateLimit.max, options.rateLimit.durationMs);

    // A run already on the queue (an earlier batch that was interrupted) is followed, not queued
    // twice; a finished job of a run the studio does not have is queued again.
    let alreadyQueued = 0;
    const fresh: RunJob[] = [];
    for (const job of options.jobs) {
      const existing = await queue.getJob(job.runId);
      const state = existing ? await existing.getState() : null;
      if (existing && (state === "completed" || state === "failed")) await existing.remove();
      else if (existing) {
        alreadyQueued += 1;
        continue;
      }
      fresh.push({ ...job, batch });
    }
    for (let i = 0; i < fresh.length; i += 500) {
      await queue.addBulk(
        fresh.slice(i, i + 500).map((data) => ({ name: "run", data, opts: { ...RUN_JOB_OPTIONS, jobId: data.runId } })),
      );
    }
    options.onQueued?.(batch, fresh.length, alreadyQueued);

    async function settleIfFinal(runId: string, reason?: string) {
      const job = await Job.fromId(queue, runId);
      const state = job ? await job.getState() : "missing";
      if (state === "completed") onCompleted(runId, job!.returnvalue);
      else if (state === "failed") onFailed(runId, reason ?? job!.failedReason ?? "failed");
      else if (state === "missing") onFailed(runId, "the job left the queue without a result");
    }

    let cancelled = false;
    const cancel = async () => {
      if (cancelled) return;
      cancelled = true;
      const redis = new Redis(options.url, { maxRetriesPerRequest: 3 });
      try {
        await redis.set(cancelKeyOf(batch), "1", "EX", 7 * 24 * 3600);
      } finally {
        redis.disconnect();
      }
      for (const runId of [...pending]) {
        const job = await queue.getJob(runId);
        const state = job ? await job.getState() : "missing";
        if (state !== "active" && job?.data?.batch === batch) {
          await job.remove().catch(() => undefined);
          finish(runId, { failed: true, note: "cancelled" }, "cancelled");
        }
      }
    };
    const onAbort = () => void cancel();
    options.signal.addEventListener("abort", onAbort);
    if (options.signal.aborted) await cancel();

    let cursor = 0;
    const cancelDeadline = () => (cancelled ? Date.now() + CANCEL_WAIT_MS : Infinity);
    let deadline = Infinity;
    while (pending.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RECONCILE_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (cancelled && deadline === Infinity) deadline = cancelDeadline();
      if (Date.now() > deadline) {
        for (const runId of [...pending]) finish(runId, { failed: true, note: "cancelled" }, "cancelled");
        break;
      }
      const unfinished = [...pending];
      cursor = cursor >= unfinished.length ? 0 : cursor;
      for (const runId of unfinished.slice(cursor, cursor + RECONCILE_BATCH)) await settleIfFinal(runId);
      cursor += RECONCILE_BATCH;
    }
    options.signal.removeEventListener("abort", onAbort);
    return outcomes;
  } finally {
    await events.close();
    await queue.close();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
