/**
 * One annotator's session for agreement-concurrency.test.ts, run as a child process with its own
 * connection to the same database file (as separate server processes would). It saves the labels
 * it is sent, one transaction per call, as fast as it can once told to go, and reports what failed.
 */
import { createDb } from "../client";
import type { LabelInput } from "@/lib/agreement/study-schema";
import { saveLabel } from "./agreement-labels";

export interface WorkerJob {
  runId: string;
  label: LabelInput;
}

export type ToWorker =
  { type: "jobs"; file: string; setId: number; userId: number; jobs: WorkerJob[] } | { type: "go" };
export type FromWorker =
  { type: "ready" } | { type: "done"; saved: number; errors: string[]; startedAt: number; finishedAt: number };

let work: Extract<ToWorker, { type: "jobs" }> | null = null;
let db: ReturnType<typeof createDb> | null = null;

function send(message: FromWorker): void {
  process.send?.(message);
}

process.on("message", (message: ToWorker) => {
  if (message.type === "jobs") {
    work = message;
    db = createDb(message.file);
    send({ type: "ready" });
    return;
  }
  if (!work || !db) throw new Error("go before jobs");
  const startedAt = performance.timeOrigin + performance.now();
  const errors: string[] = [];
  let saved = 0;
  for (const job of work.jobs) {
    try {
      saveLabel(db, { setId: work.setId, runId: job.runId, userId: work.userId }, job.label);
      saved += 1;
    } catch (error) {
      errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    }
  }
  const finishedAt = performance.timeOrigin + performance.now();
  db.$client.close();
  send({ type: "done", saved, errors, startedAt, finishedAt });
  process.disconnect?.();
});
