/**
 * The job queue in the database: enqueue, claim with a lease (one worker at a time per job),
 * heartbeat, progress, log, cancel, and the sweep that ends the jobs of workers that died.
 */
import { hostname } from "node:os";
import { and, desc, eq, sql } from "drizzle-orm";
import { holderGone, lostWorkerReason, pidAlive, type WorkerIdentity } from "@/lib/jobs/lease";
import type { JobParams, JobStatus } from "@/lib/jobs/schema";
import type { Db } from "../client";
import * as t from "../schema";

/** The log keeps its last 200 kB: long runs must not grow the database without bound. */
const MAX_LOG_CHARS = 200_000;

export interface JobRow {
  id: number;
  kind: string;
  params: JobParams;
  status: JobStatus;
  progressDone: number;
  progressTotal: number | null;
  message: string | null;
  log: string;
  error: string | null;
  cancelRequested: boolean;
  workerPid: number | null;
  workerId: string | null;
  heartbeatAt: string | null;
  leaseExpiresAt: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

const iso = (date: Date) => date.toISOString();
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms).toISOString();

export function enqueueJob(db: Db, params: JobParams): number {
  return db.insert(t.jobs).values({ kind: params.kind, params }).returning({ id: t.jobs.id }).get().id;
}

/**
 * Takes the oldest queued job for this worker, atomically (two workers never get the same job),
 * with a lease of `leaseMs` that the worker renews with `renewLease`.
 */
export function claimNextJob(db: Db, worker: WorkerIdentity, leaseMs: number, now = new Date()): JobRow | null {
  return db.transaction((tx) => {
    const next = tx
      .select({ id: t.jobs.id })
      .from(t.jobs)
      .where(eq(t.jobs.status, "queued"))
      .orderBy(t.jobs.id)
      .limit(1)
      .get();
    if (!next) return null;
    tx.update(t.jobs)
      .set({
        status: "running",
        startedAt: iso(now),
        workerPid: worker.pid,
        workerId: worker.id,
        heartbeatAt: iso(now),
        leaseExpiresAt: plus(now, leaseMs),
      })
      .where(and(eq(t.jobs.id, next.id), eq(t.jobs.status, "queued")))
      .run();
    return (tx.select().from(t.jobs).where(eq(t.jobs.id, next.id)).get() as JobRow | undefined) ?? null;
  });
}

/**
 * The heartbeat: extends the lease if this worker still holds the job. `held: false` means another
 * worker declared it lost (this one stalled past its lease): the job is no longer this worker's.
 */
export function renewLease(
  db: Db,
  id: number,
  workerId: string,
  leaseMs: number,
  now = new Date(),
): { held: boolean; cancelRequested: boolean } {
  const row = db
    .update(t.jobs)
    .set({ heartbeatAt: iso(now), leaseExpiresAt: plus(now, leaseMs) })
    .where(and(eq(t.jobs.id, id), eq(t.jobs.workerId, workerId), eq(t.jobs.status, "running")))
    .returning({ cancelRequested: t.jobs.cancelRequested })
    .get();
  return row ? { held: true, cancelRequested: row.cancelRequested } : { held: false, cancelRequested: false };
}

const runningJobs = (db: Pick<Db, "select">) =>
  db
    .select({
      id: t.jobs.id,
      workerId: t.jobs.workerId,
      workerPid: t.jobs.workerPid,
      heartbeatAt: t.jobs.heartbeatAt,
      leaseExpiresAt: t.jobs.leaseExpiresAt,
      cancelRequested: t.jobs.cancelRequested,
    })
    .from(t.jobs)
    .where(eq(t.jobs.status, "running"))
    .all();

export interface SweptJob {
  id: number;
  status: "failed" | "cancelled";
  error: string;
}

/**
 * Ends the running jobs whose worker is gone (lib/jobs/lease.ts `holderGone`): failed with the
 * reason, or cancelled when a cancel was asked for. Every worker runs it at start and with each
 * heartbeat. Re-checked inside the transaction, so a heartbeat that lands meanwhile wins.
 */
export function sweepLostJobs(
  db: Db,
  observer: { host: string; alive?: (pid: number) => boolean },
  now = new Date(),
): SweptJob[] {
  const alive = observer.alive ?? pidAlive;
  return db.transaction((tx) =>
    runningJobs(tx)
      .filter((job) => holderGone(job, now, observer.host, alive))
      .map((job): SweptJob => {
        const reason = lostWorkerReason(job, now);
        const ended: SweptJob = job.cancelRequested
          ? { id: job.id, status: "cancelled", error: `cancelled; ${reason}` }
          : { id: job.id, status: "failed", error: reason };
        tx.update(t.jobs)
          .set({ status: ended.status, error: ended.error, finishedAt: iso(now), leaseExpiresAt: null })
          .where(and(eq(t.jobs.id, job.id), eq(t.jobs.status, "running")))
          .run();
        return ended;
      }),
  );
}

export function recordJobOutput(
  db: Db,
  id: number,
  text: string,
  progress: { done: number; total: number } | null,
): void {
  db.update(t.jobs)
    .set({
      log: sql`substr(${t.jobs.log} || ${text}, -${MAX_LOG_CHARS})`,
      ...(progress ? { progressDone: progress.done, progressTotal: progress.total } : {}),
    })
    .where(eq(t.jobs.id, id))
    .run();
}

/**
 * Ends a job. With `workerId`, only while that worker holds it: a worker that stalled past its
 * lease does not overwrite the reason another worker recorded.
 */
export function finishJob(
  db: Db,
  id: number,
  status: Exclude<JobStatus, "queued" | "running">,
  error: string | null,
  workerId?: string,
  now = new Date(),
): boolean {
  const held = workerId ? and(eq(t.jobs.workerId, workerId), eq(t.jobs.status, "running")) : undefined;
  const result = db
    .update(t.jobs)
    .set({ status, error, finishedAt: iso(now), leaseExpiresAt: null })
    .where(and(eq(t.jobs.id, id), held))
    .run();
  return result.changes > 0;
}

/**
 * A queued job is cancelled at once (it never starts); a running one is stopped by its worker,
 * which polls the flag; a running one whose worker is gone is cancelled here, with the reason.
 */
export function requestCancel(
  db: Db,
  id: number,
  observer: { host: string; alive?: (pid: number) => boolean } = { host: hostname() },
  now = new Date(),
): boolean {
  return db.transaction((tx) => {
    const job = tx.select().from(t.jobs).where(eq(t.jobs.id, id)).get();
    if (!job || (job.status !== "queued" && job.status !== "running")) return false;
    if (job.status === "queued")
      tx.update(t.jobs)
        .set({ status: "cancelled", finishedAt: iso(now) })
        .where(eq(t.jobs.id, id))
        .run();
    else if (holderGone(job, now, observer.host, observer.alive ?? pidAlive))
      tx.update(t.jobs)
        .set({
          status: "cancelled",
          cancelRequested: true,
          error: `cancelled; ${lostWorkerReason(job, now)}`,
          finishedAt: iso(now),
          leaseExpiresAt: null,
        })
        .where(eq(t.jobs.id, id))
        .run();
    else tx.update(t.jobs).set({ cancelRequested: true }).where(eq(t.jobs.id, id)).run();
    return true;
  });
}

export function isCancelRequested(db: Db, id: number): boolean {
  return db.select({ c: t.jobs.cancelRequested }).from(t.jobs).where(eq(t.jobs.id, id)).get()?.c ?? false;
}

export function listJobs(db: Db, limit = 50): JobRow[] {
  return db.select().from(t.jobs).orderBy(desc(t.jobs.id)).limit(limit).all() as JobRow[];
}
