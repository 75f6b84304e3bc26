/** The job queue in the database: enqueue, claim (one worker at a time per job), progress, log, cancel. */
import { and, desc, eq, sql } from "drizzle-orm";
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
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

const now = () => new Date().toISOString();

export function enqueueJob(db: Db, params: JobParams): number {
  return db.insert(t.jobs).values({ kind: params.kind, params }).returning({ id: t.jobs.id }).get().id;
}

/** Takes the oldest queued job for this worker, atomically (two workers never get the same job). */
export function claimNextJob(db: Db, workerPid: number): JobRow | null {
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
      .set({ status: "running", startedAt: now(), workerPid })
      .where(and(eq(t.jobs.id, next.id), eq(t.jobs.status, "queued")))
      .run();
    return (tx.select().from(t.jobs).where(eq(t.jobs.id, next.id)).get() as JobRow | undefined) ?? null;
  });
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

export function finishJob(
  db: Db,
  id: number,
  status: Exclude<JobStatus, "queued" | "running">,
  error: string | null,
): void {
  db.update(t.jobs).set({ status, error, finishedAt: now() }).where(eq(t.jobs.id, id)).run();
}

/** A queued job is cancelled at once; a running one is stopped by its worker. */
export function requestCancel(db: Db, id: number): boolean {
  return db.transaction((tx) => {
    const job = tx.select({ status: t.jobs.status }).from(t.jobs).where(eq(t.jobs.id, id)).get();
    if (!job || (job.status !== "queued" && job.status !== "running")) return false;
    if (job.status === "queued")
      tx.update(t.jobs).set({ status: "cancelled", finishedAt: now() }).where(eq(t.jobs.id, id)).run();
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
