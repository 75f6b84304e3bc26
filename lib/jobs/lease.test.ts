import { describe, expect, it } from "vitest";
import {
  endedByLostWorker,
  holderGone,
  leaseSummary,
  lostWorkerReason,
  parseWorkerId,
  pidAlive,
  workerIdentity,
} from "./lease";

describe("worker identity", () => {
  it("names host and pid, unique per worker even in one process", () => {
    const a = workerIdentity("box.example", 12);
    const b = workerIdentity("box.example", 12);
    expect(a.id).not.toBe(b.id);
    expect(parseWorkerId(a.id)).toEqual({ host: "box.example", pid: 12 });
    expect(parseWorkerId("12")).toBeNull();
  });

  it("tells a live pid from a gone one", () => {
    expect(pidAlive(process.pid)).toBe(true);
    // Above the kernel's pid_max (4194304): never a process.
    expect(pidAlive(2 ** 23)).toBe(false);
  });

  it("counts a holder gone when its lease expired, or its process on this host no longer exists", () => {
    const now = new Date("2026-01-01T00:00:10.000Z");
    const job = {
      workerId: workerIdentity("box", 9).id,
      workerPid: 9,
      heartbeatAt: "2026-01-01T00:00:00.000Z",
      leaseExpiresAt: "2026-01-01T00:00:30.000Z",
    };
    expect(holderGone(job, now, "box", () => true)).toBe(false);
    expect(holderGone(job, now, "box", () => false)).toBe(true);
    expect(holderGone(job, now, "elsewhere", () => false)).toBe(false);
    expect(holderGone(job, new Date("2026-01-01T00:00:31.000Z"), "elsewhere", () => true)).toBe(true);
    expect(holderGone({ ...job, leaseExpiresAt: null }, now, "box", () => true)).toBe(true);
  });
});

describe("lease summary", () => {
  const job = {
    workerId: "box/9/abcd1234",
    workerPid: 9,
    heartbeatAt: "2026-01-01T00:00:00.000Z",
    leaseExpiresAt: "2026-01-01T00:00:30.000Z",
  };
  it("says who holds a running job and when it was last heard from, and when it is lost", () => {
    expect(leaseSummary(job, new Date("2026-01-01T00:00:04.000Z"))).toEqual({
      text: "worker pid 9, last heartbeat 4 s ago",
      expired: false,
    });
    expect(leaseSummary(job, new Date("2026-01-01T00:00:45.000Z"))).toEqual({
      text: "worker pid 9 not heard from for 45 s: lost, the next worker marks the job failed (Cancel ends it now)",
      expired: true,
    });
    expect(leaseSummary({ ...job, heartbeatAt: null, leaseExpiresAt: null }, new Date()).expired).toBe(true);
  });

  it("recognizes the reasons of jobs that lost their worker", () => {
    const reason = lostWorkerReason(job, new Date("2026-01-01T00:00:45.000Z"));
    expect(reason).toBe("the worker running it stopped (pid 9, last heartbeat 2026-01-01T00:00:00.000Z, 45 s before)");
    expect(endedByLostWorker(reason)).toBe(true);
    expect(endedByLostWorker(`cancelled; ${reason}`)).toBe(true);
    expect(endedByLostWorker("exit code 1")).toBe(false);
    expect(endedByLostWorker(null)).toBe(false);
  });
});
