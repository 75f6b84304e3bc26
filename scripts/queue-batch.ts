/**
 * The studio's side of a batch on a BullMQ queue, whatever its jobs do (agent runs:
 * run-agents-queue.ts; evaluations: evaluate-queue.ts): the jobs are queued under a fresh batch
 * id, followed from the queue's events (and checked directly every few seconds, in case an event
 * was missed) until each has ended, and a stop signal cancels the batch: its waiting jobs are
 * removed and its cancel key tells the workers to stop its active ones.
 */
import { randomBytes } from "node:crypto";
import { Job, Queue, QueueEvents, type JobsOptions } from "bullmq";
import { Redis } from "ioredis";
import { cancelKeyOf, redisConnection } from "@/lib/remote/run-queue";

export interface FollowedBatch<D extends { batch: string }> {
  url: string;
  queueName: string;
  jobName: string;
  jobOptions: JobsOptions;
  /** Each job's id and its data but the batch id, which is made here. */
  jobs: { id: string; data: Omit<D, "batch"> }[];
  rateLimit?: { max: number; durationMs: number };
  signal: AbortSignal;
  /** Told once the jobs are queued: the batch id, for the log. */
  onQueued?(batch: string, added: number, alreadyQueued: number): void;
  /** A job that completed, with what it returned (as the queue keeps it). */
  onCompleted(jobId: string, value: unknown): void;
  /** A job that failed for good, was removed by a cancel, or left the queue without a result. */
  onFailed(jobId: string, reason: string, cancelled: boolean): void;
}

/** How often the batch's unfinished jobs are checked directly, in case an event was missed. */
const RECONCILE_MS = 5_000;
const RECONCILE_BATCH = 200;
/** After a stop, how long active jobs get to be stopped by their workers. */
const CANCEL_WAIT_MS = 60_000;

export async function followQueuedBatch<D extends { batch: string }>(options: FollowedBatch<D>): Promise<void> {
  const connection = redisConnection(options.url);
  const name = options.queueName;
  const queue = new Queue(name, { connection });
  const events = new QueueEvents(name, { connection });
  const batch = `b${Date.now().toString(36)}${randomBytes(4).toString("hex")}`;
  const pending = new Set(options.jobs.map((j) => j.id));
  let wake: () => void = () => undefined;

  const settled = (jobId: string) => {
    if (!pending.delete(jobId)) return false;
    wake();
    return true;
  };
  const onCompleted = (jobId: string, value: unknown) => {
    if (settled(jobId)) options.onCompleted(jobId, typeof value === "string" ? safeJson(value) : value);
  };
  const onFailed = (jobId: string, reason: string) => {
    if (settled(jobId)) options.onFailed(jobId, reason, reason.startsWith("cancelled"));
  };

  try {
    await events.waitUntilReady();
    events.on("completed", ({ jobId, returnvalue }) => onCompleted(jobId, returnvalue));
    // Emitted when a job has failed for good (a failed attempt with attempts left is retried, not failed).
    events.on("failed", ({ jobId, failedReason }) => {
      if (pending.has(jobId)) void settleIfFinal(jobId, failedReason);
    });
    if (options.rateLimit) await queue.setGlobalRateLimit(options.rateLimit.max, options.rateLimit.durationMs);

    // A job already on the queue (an earlier batch that was interrupted) is followed, not queued
    // twice; a finished one is queued again (its caller found its work still to do).
    let alreadyQueued = 0;
    const fresh: { id: string; data: D }[] = [];
    for (const job of options.jobs) {
      const existing = await queue.getJob(job.id);
      const state = existing ? await existing.getState() : null;
      if (existing && (state === "completed" || state === "failed")) await existing.remove();
      else if (existing) {
        alreadyQueued += 1;
        continue;
      }
      fresh.push({ id: job.id, data: { ...job.data, batch } as D });
    }
    for (let i = 0; i < fresh.length; i += 500) {
      await queue.addBulk(
        fresh.slice(i, i + 500).map(({ id, data }) => ({
          name: options.jobName,
          data,
          opts: { ...options.jobOptions, jobId: id },
        })),
      );
    }
    options.onQueued?.(batch, fresh.length, alreadyQueued);

    // The state first, then the job: a job read while active and found completed a moment later
    // has no return value yet (2 of 60 one-run jobs were lost to that order in a test).
    async function settleIfFinal(jobId: string, reason?: string) {
      const state = await queue.getJobState(jobId);
      if (state !== "completed" && state !== "failed" && state !== "unknown") return;
      const job = await Job.fromId(queue, jobId);
      if (!job) onFailed(jobId, "the job left the queue without a result");
      else if (state === "completed") onCompleted(jobId, job.returnvalue);
      else if (state === "failed") onFailed(jobId, reason ?? job.failedReason ?? "failed");
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
      for (const jobId of [...pending]) {
        const job = await queue.getJob(jobId);
        const state = job ? await job.getState() : "missing";
        if (state !== "active" && job?.data?.batch === batch) {
          await job.remove().catch(() => undefined);
          onFailed(jobId, "cancelled");
        }
      }
    };
    const onAbort = () => void cancel();
    options.signal.addEventListener("abort", onAbort);
    if (options.signal.aborted) await cancel();

    let cursor = 0;
    let deadline = Infinity;
    while (pending.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RECONCILE_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (cancelled && deadline === Infinity) deadline = Date.now() + CANCEL_WAIT_MS;
      if (Date.now() > deadline) {
        for (const jobId of [...pending]) onFailed(jobId, "cancelled");
        break;
      }
      const unfinished = [...pending];
      cursor = cursor >= unfinished.length ? 0 : cursor;
      for (const jobId of unfinished.slice(cursor, cursor + RECONCILE_BATCH)) await settleIfFinal(jobId);
      cursor += RECONCILE_BATCH;
    }
    options.signal.removeEventListener("abort", onAbort);
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
