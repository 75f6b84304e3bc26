import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { hostname } from "node:os";
import { claimNextJob, enqueueJob, listJobs, requestCancel } from "@/db/queries/jobs";
import { workerIdentity } from "@/lib/jobs/lease";
import { importParsedBundle } from "@/db/queries/run-import";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { main } from "./worker";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "worker-"));
const dbPath = path.join(work, "studio.db");
const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "test", STUDIO_DB: dbPath };

beforeAll(() => {
  const db = createDb(dbPath);
  for (let i = 0; i < 3; i++)
    importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 8 })), `b${i}`), {
      via: "cli",
    });
  db.$client.close();
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const quiet = () => {
  const stream = new PassThrough();
  stream.resume();
  return stream;
};

describe("worker", () => {
  it("runs a queued job as its CLI, keeping the log and the progress, and cancels queued jobs at once", async () => {
    const db = createDb(dbPath);
    const done = enqueueJob(db, { kind: "evaluate", judge: "rule", mock: false, force: false });
    const dropped = enqueueJob(db, { kind: "evaluate", judge: "rule", mock: false, force: true });
    expect(requestCancel(db, dropped)).toBe(true);

    expect(
      await main(["--once", "--poll-ms", "100"], {
        stdout: quiet(),
        stderr: quiet() as unknown as NodeJS.WriteStream,
        env,
      }),
    ).toBe(0);
    const jobs = new Map(listJobs(db).map((j) => [j.id, j]));
    db.$client.close();
    expect(jobs.get(done)).toMatchObject({ status: "succeeded", progressDone: 3, progressTotal: 3, error: null });
    expect(jobs.get(done)?.log).toContain("$ scripts/evaluate.ts --judge rule");
    expect(jobs.get(done)?.log).toMatch(/3 run\(s\) evaluated by the rule judge/);
    expect(jobs.get(dropped)?.status).toBe("cancelled");
    // A real CLI process: ~2 s here when idle, over 5 s with the other CLI tests beside it.
  }, 30_000);

  it("at its start, fails the job of a worker on this host that no longer exists, naming it", async () => {
    const db = createDb(dbPath);
    const id = enqueueJob(db, { kind: "evaluate", judge: "rule", mock: false, force: false });
    // Above the kernel's pid_max: a worker that cannot be alive, whose lease has not yet run out.
    claimNextJob(db, workerIdentity(hostname(), 2 ** 23), 60_000);
    const out = new PassThrough();
    let printed = "";
    out.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    expect(await main(["--once"], { stdout: out, stderr: quiet() as unknown as NodeJS.WriteStream, env })).toBe(0);
    const job = listJobs(db).find((j) => j.id === id);
    db.$client.close();
    expect(job).toMatchObject({ status: "failed", leaseExpiresAt: null });
    expect(job?.error).toMatch(/^the worker running it stopped \(pid 8388608, last heartbeat \S+, 0 s before\)$/);
    expect(printed).toContain(`job ${id} failed: the worker running it stopped (pid 8388608`);
  });
});
