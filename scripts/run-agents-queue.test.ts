import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { UnrecoverableError, Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisConnection, runQueueName, type RunJob } from "@/lib/remote/run-queue";
import { hasRedisServer, startRedis } from "@/lib/test-support/redis.fixture";
import { runQueuedBatch } from "./run-agents-queue";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "run-agents-queue-"));
let redis: Awaited<ReturnType<typeof startRedis>> | null = null;

beforeAll(async () => {
  if (hasRedisServer) redis = await startRedis(work);
}, 30_000);
afterAll(() => {
  redis?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A run job as run-agents queues it; the worker here only reads its run id. */
const job = (runId: string) =>
  ({
    benchmark: "b",
    agent: { name: "file-tools" },
    mock: true,
    seed: 0,
    instanceId: `i-${runId}`,
    runId,
    configId: "c",
  }) as unknown as Omit<RunJob, "batch">;

describe.skipIf(!hasRedisServer)("runQueuedBatch (Redis on a free loopback port)", () => {
  it("counts each run by how its job ended: completed, already in the studio, failed for good", async () => {
    const url = redis!.url;
    // A worker machine in miniature: the outcome is chosen by run id.
    const worker = new Worker(
      runQueueName("gemini"),
      async (taken) => {
        const runId = (taken.data as RunJob).runId;
        if (runId === "r-error") throw new UnrecoverableError("could not be recorded");
        return { outcome: runId === "r-already" ? "already in the studio" : "completed", worker: "w" };
      },
      { connection: redisConnection(url) },
    );
    try {
      const told: string[] = [];
      const outcomes = await runQueuedBatch({
        url,
        provider: "gemini",
        jobs: ["r-done", "r-already", "r-error"].map(job),
        signal: new AbortController().signal,
        onQueued: (_batch, added, already) => told.push(`queued ${added}, ${already} already`),
        onRun: (runId, { failed, note }) => told.push(`${runId} ${failed ? "failed" : "ok"}: ${note}`),
      });
      expect(outcomes).toEqual({ completed: 1, failed: 0, errors: 1, already: 1, cancelled: 0 });
      expect(told[0]).toBe("queued 3, 0 already");
      expect(told.slice(1).sort()).toEqual([
        "r-already ok: already in the studio",
        "r-done ok: completed on w",
        "r-error failed: could not be recorded",
      ]);
    } finally {
      await worker.close();
    }
  }, 60_000);
});
