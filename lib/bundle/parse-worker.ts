/**
 * The import worker's entry: reads and parses one archive off the thread that serves pages, and
 * posts back the parsed bundle or the error. Started by import-pool.ts, one worker per import.
 */
import { parentPort, resourceLimits, workerData } from "node:worker_threads";
import type { ReadStats } from "./budget";
import { BundleError } from "./errors";
import { DEFAULT_MAX_JSON_BYTES, jsonBytesWithinHeap } from "./json-budget";
import type { ParseJob, WorkerReply } from "./import-pool";
import { parseBundle } from "./parse";
import { readArchiveBuffer, type ReadLimits } from "./read";
import { AppError } from "@/lib/errors/app-error";

/** The caller's limits, with the JSON budget held to what this worker's heap can parse (json-budget.ts). */
function limitsWithinHeap(limits: ReadLimits): ReadLimits {
  const cap = resourceLimits.maxOldGenerationSizeMb;
  if (cap === undefined) return limits;
  const withinHeap = jsonBytesWithinHeap(cap);
  if ((limits.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES) <= withinHeap) return limits;
  return { ...limits, maxJsonBytes: withinHeap, maxJsonBytesSetBy: `what a ${cap} MB import worker can parse` };
}

async function run(job: ParseJob): Promise<WorkerReply> {
  const stats: ReadStats = { archiveBytes: 0, inflatedBytes: 0 };
  try {
    const limits = limitsWithinHeap(job.limits);
    const data = Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength);
    const files = await readArchiveBuffer(data, job.kind, job.label, limits, stats);
    return {
      ok: true,
      bundle: parseBundle(files, job.label, limits.maxJsonBytes, limits.maxJsonBytesSetBy),
      stats,
    };
  } catch (error) {
    if (error instanceof BundleError) {
      return { ok: false, stats, error: { code: error.code, location: error.location, problem: error.problem } };
    }
    if (error instanceof AppError) return { ok: false, stats, error: { code: error.code, message: error.message } };
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { ok: false, stats, error: { code: "INTERNAL", message } };
  }
}

/**
 * The members' large buffers move back to the page thread instead of being copied: a bundle's
 * files and native logs (up to STUDIO_BUNDLE_MAX_BYTES) would otherwise be held twice at the end.
 * Small ones stay cloned: they may sit in Node's shared buffer pool, which cannot be transferred.
 */
function transferablesOf(reply: WorkerReply): ArrayBuffer[] {
  if (!reply.ok) return [];
  const buffers = new Set<ArrayBuffer>();
  for (const member of reply.bundle.members) {
    const data = member.data as Uint8Array;
    if (data.buffer.byteLength >= 1024 * 1024 && data.buffer instanceof ArrayBuffer) buffers.add(data.buffer);
  }
  return [...buffers];
}

void run(workerData as ParseJob).then((reply) => parentPort?.postMessage(reply, transferablesOf(reply)));
