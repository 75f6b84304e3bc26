import { describe, expect, it } from "vitest";
import { workerIdentity } from "@/lib/jobs/lease";
import type { JobParams } from "@/lib/jobs/schema";
import { createDb } from "../client";
import {
  claimNextJob,
  enqueueJob,
  finishJob,
  isCancelRequested,
  listJobs,
  renewLease,
  requestCancel,
  sweepLostJobs,
} from "./jobs";

const T0 = new Date("2026-03-01T10:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const LEASE = 30_000;
const EVALUATE: JobParams = { kind: "evaluate", judge: "rule", mock: false, force: false };

/** Observers on the same host as the workers: `alive` says which worker pids still exist. */
const here = (...alivePids: number[]) => ({ host: "box", alive: (pid: number) => alivePids.includes(pid) });

function withRunningJob() {
  const db = createDb(":memory:");
  const worker = workerIdentity("box", 4242);
  const id = enqueueJob(db, EVALUATE);
  const job = claimNextJob(db, worker, LEASE, T0);
  return { db, worker, id, job };
}

const jobOf = (db: ReturnType<typeof createDb>, id: number) => listJobs(db).find((j) => j.id === id)!;

describe("job leases", () => {
  it("a claim holds a lease: who, since when, until when; a second worker gets nothing", () => {
    const { db, worker, id, job } = withRunningJob();
    expect(job).toMatchObject({
      id,
      status: "running",
      workerPid: 4242,
      workerId: worker.id,
      heartbeatAt: T0.toISOString(),
      leaseExpiresAt: at(LEASE).toISOString(),
    });
    expect(claimNextJob(db, workerIdentity("box", 5151), LEASE, at(1))).toBeNull();
  });

  it("a job whose worker died is failed with the reason by the next sweep after its lease", () => {
    const { db, id } = withRunningJob();
    // Another host cannot tell whether pid 4242 lives: it waits out the lease.
    expect(sweepLostJobs(db, { host: "other" }, at(LEASE - 1))).toEqual([]);
    expect(jobOf(db, id).status).toBe("running");
    const swept = sweepLostJobs(db, { host: "other" }, at(LEASE + 5_000));
    expect(swept).toEqual([
      {
        id,
        status: "failed",
        error: `the worker running it stopped (pid 4242, last heartbeat ${T0.toISOString()}, 35 s before)`,
      },
    ]);
    expect(jobOf(db, id)).toMatchObject({ status: "failed", error: swept[0]!.error, leaseExpiresAt: null });
    // Swept once: a later sweep finds nothing, and the dead worker cannot overwrite the reason.
    expect(sweepLostJobs(db, { host: "other" }, at(LEASE * 3))).toEqual([]);
  });

  it("on the same host a worker that no longer exists loses its job at once, without waiting out the lease", () => {
    const { db, id } = withRunningJob();
    expect(sweepLostJobs(db, here(4242), at(1_000))).toEqual([]);
    expect(sweepLostJobs(db, here(), at(1_000))).toMatchObject([{ id, status: "failed" }]);
  });

  it("heartbeats keep a long job alive past many lease lengths", () => {
    const { db, worker, id } = withRunningJob();
    for (let s = 10; s <= 600; s += 10) {
      expect(renewLease(db, id, worker.id, LEASE, at(s * 1000))).toEqual({ held: true, cancelRequested: false });
      expect(sweepLostJobs(db, { host: "other" }, at(s * 1000 + LEASE - 1))).toEqual([]);
    }
    expect(jobOf(db, id)).toMatchObject({ status: "running", heartbeatAt: at(600_000).toISOString() });
    expect(finishJob(db, id, "succeeded", null, worker.id, at(601_000))).toBe(true);
    expect(jobOf(db, id)).toMatchObject({ status: "succeeded", leaseExpiresAt: null });
  });

  it("a worker that stalled past its lease finds the job no longer its own and cannot overwrite the reason", () => {
    const { db, worker, id } = withRunningJob();
    sweepLostJobs(db, { host: "other" }, at(LEASE + 1));
    expect(renewLease(db, id, worker.id, LEASE, at(LEASE + 2))).toEqual({ held: false, cancelRequested: false });
    expect(finishJob(db, id, "succeeded", null, worker.id, at(LEASE + 3))).toBe(false);
    expect(jobOf(db, id)).toMatchObject({ status: "failed", error: expect.stringMatching(/^the worker running it/) });
  });
});

describe("cancel", () => {
  it("a queued job cancelled never starts", () => {
    const db = createDb(":memory:");
    const id = enqueueJob(db, EVALUATE);
    expect(requestCancel(db, id, here(), T0)).toBe(true);
    expect(jobOf(db, id).status).toBe("cancelled");
    expect(claimNextJob(db, workerIdentity("box", 1), LEASE, at(1))).toBeNull();
  });

  it("a running job with a live worker is flagged for its worker, which hears of it with the next heartbeat", () => {
    const { db, worker, id } = withRunningJob();
    expect(requestCancel(db, id, here(4242), at(1_000))).toBe(true);
    expect(jobOf(db, id).status).toBe("running");
    expect(isCancelRequested(db, id)).toBe(true);
    expect(renewLease(db, id, worker.id, LEASE, at(2_000))).toEqual({ held: true, cancelRequested: true });
    expect(finishJob(db, id, "cancelled", null, worker.id, at(3_000))).toBe(true);
    expect(requestCancel(db, id, here(4242), at(4_000))).toBe(false);
  });

  it("a running job whose worker is gone is cancelled at once, with the reason", () => {
    const { db, id } = withRunningJob();
    expect(requestCancel(db, id, { host: "other" }, at(LEASE + 1_000))).toBe(true);
    expect(jobOf(db, id)).toMatchObject({
      status: "cancelled",
      error: `cancelled; the worker running it stopped (pid 4242, last heartbeat ${T0.toISOString()}, 31 s before)`,
    });
    const fresh = withRunningJob();
    expect(requestCancel(fresh.db, fresh.id, here(), at(1_000))).toBe(true);
    expect(jobOf(fresh.db, fresh.id).status).toBe("cancelled");
  });

  it("a flagged job whose worker then dies is swept as cancelled, not failed", () => {
    const { db, id } = withRunningJob();
    requestCancel(db, id, here(4242), at(1_000));
    expect(sweepLostJobs(db, here(), at(2_000))).toMatchObject([{ id, status: "cancelled" }]);
  });

  it("a job running from before leases existed (no lease) counts as lost", () => {
    const db = createDb(":memory:");
    const id = enqueueJob(db, EVALUATE);
    db.$client.prepare("UPDATE jobs SET status = 'running', worker_pid = 77 WHERE id = ?").run(id);
    expect(sweepLostJobs(db, here(77), T0)).toEqual([
      { id, status: "failed", error: "the worker running it stopped (pid 77, no heartbeat recorded)" },
    ]);
  });
});
