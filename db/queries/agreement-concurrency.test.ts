/**
 * Concurrent labeling by three sessions loses no label. Three child
 * processes, each with its own connection to the same database file, save hundreds of labels at
 * once; afterwards every label holds the last value its annotator saved, and no call failed
 * (SQLITE_BUSY included: writes are IMMEDIATE transactions under a 10 s busy timeout).
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { HUMAN_LABELS, type LabelInput } from "@/lib/agreement/study-schema";
import { seededRandom } from "@/lib/util/random";
import { createDb } from "../client";
import * as t from "../schema";
import type { FromWorker, ToWorker, WorkerJob } from "./agreement-concurrency-worker";
import { seedStudy } from "./agreement.fixture";
import { loadLabelingItem } from "./agreement-labels";
import { createAgreementSet } from "./agreement-sets";

const WORKER = path.join(import.meta.dirname, "agreement-concurrency-worker.ts");
/**
 * Starting three Node processes that load the database layer through tsx takes 1-2 s warm and
 * several seconds with a cold transform cache on a two-core machine; the writes themselves take
 * under a second. The default 5 s would fail on a cold start, not on a lost write.
 */
const PROCESS_TEST_TIMEOUT_MS = 30_000;
const PASSES = 5;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function nextMessage(child: ChildProcess, type: FromWorker["type"]): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      if (message.type !== type) return;
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`worker exited with ${code} before "${type}"`));
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

describe("concurrent labeling", () => {
  it(
    "keeps every label of three annotators writing in parallel from separate processes",
    { timeout: PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agreement-concurrency-"));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const file = path.join(dir, "studio.db");
      const { db, users } = seedStudy(6, createDb(file));
      cleanups.push(() => db.$client.close());
      const annotators = [users.ann, users.bob, users.cat];
      const set = createAgreementSet(db, { name: "parallel", seed: 1, size: 6, annotatorIds: annotators });
      const cells: { runId: string; metric: LabelInput["metric"] }[] = [];
      const items = db
        .select({ runId: t.agreementItems.runId })
        .from(t.agreementItems)
        .where(eq(t.agreementItems.setId, set.id))
        .all();
      for (const { runId } of items) {
        for (const metric of (await loadLabelingItem(db, set.id, runId, users.ann)).metrics)
          cells.push({ runId, metric });
      }

      // Each annotator labels every cell PASSES times in a shuffled order, changing value and note.
      const jobsOf = annotators.map((userId, a) => {
        const random = seededRandom(userId);
        const jobs: WorkerJob[] = [];
        for (let pass = 0; pass < PASSES; pass++) {
          shuffled(cells, random).forEach(({ runId, metric }, i) => {
            const label: LabelInput = {
              metric,
              value: HUMAN_LABELS[(pass + a + i) % HUMAN_LABELS.length]!,
              note: `user ${userId} pass ${pass} #${i}`,
            };
            jobs.push({ runId, label });
          });
        }
        return jobs;
      });
      expect(jobsOf.flat().length).toBeGreaterThanOrEqual(900);

      const children = annotators.map(() =>
        fork(WORKER, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] }),
      );
      cleanups.push(() => children.forEach((child) => child.exitCode === null && child.kill()));
      const ready = children.map((child) => nextMessage(child, "ready"));
      children.forEach((child, a) => {
        const message: ToWorker = { type: "jobs", file, setId: set.id, userId: annotators[a]!, jobs: jobsOf[a]! };
        child.send(message);
      });
      await Promise.all(ready);
      const done = children.map((child) => nextMessage(child, "done"));
      for (const child of children) child.send({ type: "go" } satisfies ToWorker);
      const results = (await Promise.all(done)) as Extract<FromWorker, { type: "done" }>[];

      expect(results.map((r) => r.errors)).toEqual([[], [], []]);
      expect(results.map((r) => r.saved)).toEqual(jobsOf.map((jobs) => jobs.length));
      // The three sessions really wrote at the same time: their write windows overlap.
      expect(Math.max(...results.map((r) => r.startedAt))).toBeLessThan(Math.min(...results.map((r) => r.finishedAt)));

      annotators.forEach((userId, a) => {
        const expected = new Map<string, LabelInput>();
        for (const job of jobsOf[a]!) expected.set(`${job.runId}|${job.label.metric}`, job.label);
        const stored = db
          .select({ runId: t.labels.runId, metric: t.labels.metric, value: t.labels.value, note: t.labels.note })
          .from(t.labels)
          .where(and(eq(t.labels.setId, set.id), eq(t.labels.userId, userId)))
          .all();
        expect(stored).toHaveLength(cells.length);
        for (const label of stored) {
          const last = expected.get(`${label.runId}|${label.metric}`);
          expect({ value: label.value, note: label.note }).toEqual({ value: last?.value, note: last?.note });
        }
      });
    },
  );
});
