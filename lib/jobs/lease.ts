/**
 * Job leases: a running job belongs to the worker whose lease on it has not expired. The worker
 * renews it with a heartbeat; a job whose lease ran out (or whose worker, on this host, is no
 * longer alive) lost its worker and is failed with the reason by the next worker that looks.
 * Failed, not re-queued: a job that crashed its worker (out of memory, say) would crash the next
 * one too, and run-agents resumes where it stopped when the job is queued again by hand.
 */
import { randomUUID } from "node:crypto";

export interface LeaseTiming {
  /** How long a job stays its worker's without a heartbeat. */
  leaseMs: number;
  /** How often the worker renews the lease (several heartbeats per lease, so one slow write is no loss). */
  heartbeatMs: number;
}

/** 30 s lease, heartbeat every 5 s: a dead worker's job is failed within about 35 s of its last heartbeat. */
export const DEFAULT_LEASE: LeaseTiming = { leaseMs: 30_000, heartbeatMs: 5_000 };

export interface WorkerIdentity {
  /** host/pid/nonce: a pid alone is reused, and tests run several workers in one process. */
  id: string;
  host: string;
  pid: number;
}

export function workerIdentity(host: string, pid: number): WorkerIdentity {
  return { id: `${host}/${pid}/${randomUUID().slice(0, 8)}`, host, pid };
}

/** The host and pid inside a worker id (null for an id this code did not make). */
export function parseWorkerId(id: string): { host: string; pid: number } | null {
  const match = /^(.+)\/(\d+)\/[0-9a-f]+$/.exec(id);
  return match ? { host: match[1]!, pid: Number(match[2]) } : null;
}

/** Whether a process with this pid exists on this host (EPERM: it does, and is not ours). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface LeaseHolder {
  workerId: string | null;
  workerPid: number | null;
  heartbeatAt: string | null;
  leaseExpiresAt: string | null;
}

/**
 * Whether the worker holding a running job is gone as seen from `host` at `now`: its lease
 * expired (or it never had one: a job started before leases existed), or it ran on this host and
 * its process no longer exists (a restarted worker need not wait out the lease).
 */
export function holderGone(job: LeaseHolder, now: Date, host: string, alive: (pid: number) => boolean): boolean {
  if (job.leaseExpiresAt === null || job.leaseExpiresAt < now.toISOString()) return true;
  const holder = job.workerId ? parseWorkerId(job.workerId) : null;
  return holder !== null && holder.host === host && !alive(holder.pid);
}

/** The reason a job whose worker is gone carries: which worker, and when it was last heard from. */
export function lostWorkerReason(job: LeaseHolder, now: Date): string {
  const pid = job.workerPid ?? (job.workerId ? parseWorkerId(job.workerId)?.pid : undefined);
  const beat = job.heartbeatAt
    ? `last heartbeat ${job.heartbeatAt}, ${Math.round((now.getTime() - Date.parse(job.heartbeatAt)) / 1000)} s before`
    : "no heartbeat recorded";
  return `${LOST_WORKER_PREFIX} (pid ${pid ?? "unknown"}, ${beat})`;
}

export const LOST_WORKER_PREFIX = "the worker running it stopped";

/** Whether a job ended because its worker was lost (the sweep's reason, or a cancel after it). */
export const endedByLostWorker = (error: string | null): boolean =>
  error !== null && (error.startsWith(LOST_WORKER_PREFIX) || error.startsWith(`cancelled; ${LOST_WORKER_PREFIX}`));

/** What the Jobs page says of a running job's lease: who holds it and when it was last heard from. */
export function leaseSummary(job: Omit<LeaseHolder, "workerId">, now: Date): { text: string; expired: boolean } {
  const pid = job.workerPid ?? "unknown";
  if (!job.heartbeatAt || !job.leaseExpiresAt)
    return { text: `worker pid ${pid}, no lease: started by a worker from before leases`, expired: true };
  const ago = Math.max(0, Math.round((now.getTime() - Date.parse(job.heartbeatAt)) / 1000));
  if (job.leaseExpiresAt < now.toISOString())
    return {
      text: `worker pid ${pid} not heard from for ${ago} s: lost, the next worker marks the job failed (Cancel ends it now)`,
      expired: true,
    };
  return { text: `worker pid ${pid}, last heartbeat ${ago} s ago`, expired: false };
}
