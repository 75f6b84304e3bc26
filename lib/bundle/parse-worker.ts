/**
 * The import worker's entry: reads and parses one archive off the thread that serves pages, and
 * posts back the parsed bundle or the error. Started by import-pool.ts, one worker per import.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ReadStats } from "./budget";
import { BundleError } from "./errors";
import type { ParseJob, WorkerReply } from "./import-pool";
import { parseBundle } from "./parse";
import { readArchiveBuffer } from "./read";
import { AppError } from "@/lib/errors/app-error";

async function run(job: ParseJob): Promise<WorkerReply> {
  const stats: ReadStats = { archiveBytes: 0, inflatedBytes: 0 };
  try {
    const data = Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength);
    const files = await readArchiveBuffer(data, job.kind, job.label, job.limits, stats);
    return { ok: true, bundle: parseBundle(files, job.label, job.limits.maxJsonBytes), stats };
  } catch (error) {
    if (error instanceof BundleError) {
      return { ok: false, stats, error: { code: error.code, location: error.location, problem: error.problem } };
    }
    if (error instanceof AppError) return { ok: false, stats, error: { code: error.code, message: error.message } };
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { ok: false, stats, error: { code: "INTERNAL", message } };
  }
}

void run(workerData as ParseJob).then((reply) => parentPort?.postMessage(reply));
