import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { enqueueJob, listJobs, requestCancel } from "@/db/queries/jobs";
import { importParsedBundle } from "@/db/queries/run-import";
import { parseBundle } from "@/lib/bundle/parse";
import { syntheticRun } from "@/lib/bundle/synthetic";
import { bundleFilesOf } from "@/lib/bundle/write";
import { main } from "./worker";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "worker-"));
const dbPath = path.join(work, "studio.db");
const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "test", STUDIO_DB: dbPath };

beforeAll(() => {
  const db = createDb(dbPath);
  for (let i = 0; i < 3; i++)
    importParsedBundle(db, parseBundle(bundleFilesOf(syntheticRun({ index: i, seed: 8 })), `b${i}`), { via: "cli" });
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
  });
});
