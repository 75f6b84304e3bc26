/**
 * The worker with real processes: a real run-agents job whose command agent sleeps in the
 * bubblewrap sandbox, and a worker killed with SIGKILL, stopped with SIGTERM, or asked to cancel.
 * Lease and heartbeat are shortened by flags; waits are bounded polls on process and job state.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { enqueueJob, listJobs, requestCancel, sweepLostJobs, type JobRow } from "@/db/queries/jobs";
import { bubblewrapAvailable } from "@/lib/runner/sandbox";
import { saveSampleBenchmark } from "./test-support";
import { main } from "./worker";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "worker-recovery-"));
const dbPath = path.join(work, "studio.db");
const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "test", STUDIO_DB: dbPath };
// Job parameters name agent files inside the project only: these live in git-ignored data/.
const agentDir = path.join("data", `worker-test-${randomUUID().slice(0, 8)}`);

beforeAll(async () => {
  const db = createDb(dbPath);
  await saveSampleBenchmark(db);
  db.$client.close();
  fs.mkdirSync(agentDir, { recursive: true });
});
afterAll(() => {
  // The run a finished job recorded went to data/runs (the CLI's default): remove it too.
  const db = createDb(dbPath);
  for (const { id } of db.$client.prepare("SELECT id FROM runs").all() as { id: string }[])
    fs.rmSync(path.join("data", "runs", id), { recursive: true, force: true });
  db.$client.close();
  fs.rmSync(agentDir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

/** Queues a run-agents job whose agent runs `sleep SECONDS` (a unique duration, to find the process). */
function queueSleeper(seconds: string): { id: number; marker: string } {
  const marker = `${seconds}${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
  const file = path.join(agentDir, `sleep-${marker}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ framework: "command", name: `sleeper ${marker}`, command: `sleep ${marker}` }),
  );
  const db = createDb(dbPath);
  const id = enqueueJob(db, {
    kind: "run-agents",
    benchmark: "sample",
    agent: file,
    mock: true,
    split: "eval",
    limit: 1,
  });
  db.$client.close();
  return { id, marker };
}

/** Pids of live processes whose command line contains `text`. */
function processesWith(text: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((name) => {
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
        if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return false;
        return fs.readFileSync(`/proc/${name}/cmdline`, "utf8").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether the agent's own `sleep` runs (not merely a bwrap still setting up, whose arguments name it). */
const sleeping = (marker: string) =>
  processesWith(marker).some((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8") === `sleep\0${marker}\0`;
    } catch {
      return false;
    }
  });

async function until<T>(probe: () => T | null | undefined | false, what: string): Promise<T> {
  // A bound for a hung test, not a speed check.
  for (let i = 0; i < 600; i++) {
    const value = probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`still waiting for ${what}`);
}

const jobOf = (id: number): JobRow => {
  const db = createDb(dbPath);
  try {
    return listJobs(db).find((j) => j.id === id)!;
  } finally {
    db.$client.close();
  }
};
const runCount = () => {
  const db = createDb(dbPath);
  try {
    return (db.$client.prepare("SELECT count(*) AS n FROM runs").get() as { n: number }).n;
  } finally {
    db.$client.close();
  }
};

const quiet = () => {
  const stream = new PassThrough();
  stream.resume();
  return stream;
};
const inProcessWorker = (argv: string[]) =>
  main(argv, { stdout: quiet(), stderr: quiet() as unknown as NodeJS.WriteStream, env });

function workerProcess(argv: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts", ...argv], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, out: () => out };
}

describe.runIf(await bubblewrapAvailable())("the worker with real job processes", () => {
  it("worker killed with SIGKILL mid-job: its job's processes die, and the next worker fails the job with the reason", async () => {
    const { id, marker } = queueSleeper("600.");
    const worker = workerProcess(["--poll-ms", "100", "--lease-ms", "2000", "--heartbeat-ms", "200"]);
    await until(() => sleeping(marker), "the agent's sleep to start");
    expect(jobOf(id)).toMatchObject({ status: "running", workerPid: worker.child.pid });

    worker.child.kill("SIGKILL");
    await worker.exited;
    // The guard saw its pipe close: run-agents and the sandbox are gone, nothing keeps writing.
    await until(() => processesWith(`sleep ${marker}`).length === 0, "the sandbox to go");
    await until(() => processesWith(path.join(agentDir, `sleep-${marker}`)).length === 0, "run-agents to go");
    expect(jobOf(id).status).toBe("running");

    // A new worker on this host sees that pid gone at its start, without waiting out the lease.
    expect(await inProcessWorker(["--once", "--poll-ms", "100"])).toBe(0);
    const job = jobOf(id);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(
      new RegExp(`^the worker running it stopped \\(pid ${worker.child.pid}, last heartbeat \\S+, \\d+ s before\\)$`),
    );
    expect(runCount()).toBe(0);
  }, 60_000);

  it("Cancel stops the running job within 5 s: SIGTERM to its CLI, the run in progress dropped, the sandbox gone", async () => {
    const { id, marker } = queueSleeper("600.");
    const running = inProcessWorker(["--once", "--poll-ms", "200"]);
    await until(() => sleeping(marker), "the agent's sleep to start");
    const asked = Date.now();
    const db = createDb(dbPath);
    expect(requestCancel(db, id)).toBe(true);
    db.$client.close();
    expect(await running).toBe(0);
    // The requirement's bound (the cancel poll plus the CLI's stop), far above the ~1 s it takes here.
    expect(Date.now() - asked).toBeLessThan(5000);
    const job = jobOf(id);
    expect(job).toMatchObject({ status: "cancelled", error: null });
    expect(job.log).toMatch(/stopped by SIGTERM: 1 run\(s\) in progress dropped, 0 not started/);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
    expect(runCount()).toBe(0);
  }, 60_000);

  it("SIGTERM to the worker stops the job it runs and fails it with that reason", async () => {
    const { id, marker } = queueSleeper("600.");
    const worker = workerProcess(["--poll-ms", "100"]);
    await until(() => sleeping(marker), "the agent's sleep to start");
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(worker.out()).toMatch(/stopped \(SIGTERM\)/);
    expect(jobOf(id)).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/^the worker was stopped \(SIGTERM\) while it ran; queue it again to resume/),
    });
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  }, 60_000);

  it("heartbeats keep a job running for many lease lengths its own, seen from a host that trusts only leases", async () => {
    const { id } = queueSleeper("3.");
    const db = createDb(dbPath);
    const swept: unknown[] = [];
    const sweeper = setInterval(() => swept.push(...sweepLostJobs(db, { host: "elsewhere" })), 50);
    try {
      expect(await inProcessWorker(["--once", "--poll-ms", "100", "--lease-ms", "400", "--heartbeat-ms", "100"])).toBe(
        0,
      );
    } finally {
      clearInterval(sweeper);
      db.$client.close();
    }
    expect(swept).toEqual([]);
    const job = jobOf(id);
    expect(job.status).toBe("succeeded");
    // Ran for at least the agent's 3 s sleep: more than seven 400 ms leases, each renewed in time.
    expect(Date.parse(job.finishedAt!) - Date.parse(job.startedAt!)).toBeGreaterThan(7 * 400);
  }, 60_000);
});
