/**
 * Foreign logs read off the thread that serves pages: POST /api/runs/import hands the body to a
 * fresh worker of the import pool (import-worker.ts), under the pool's heap cap and deadline, and
 * gets back the parsed bundles; the database writes stay with the caller. A hostile log (a zip
 * bomb of an .eval, a line that sends a reader into quadratic work) can at worst fail its own
 * request. docs/foreign-runs.md, section "HTTP: POST /api/runs/import".
 */
import { Worker, type WorkerOptions } from "node:worker_threads";
import {
  errorFromWorker,
  withBuffers,
  type ImportPool,
  type PostedError,
  type SpawnWorker,
} from "@/lib/bundle/import-pool";
import type { ForeignOutcome } from "./import";

/** What the worker is given: plain data, cloned (the body transferred) into it. */
export interface ForeignJob {
  data: Uint8Array;
  /** The file's name: run labels, the `native/` member, the hints a format takes from a name. */
  label: string;
  /** A format id; null detects it (and an undetected body is refused as not a known log). */
  format: string | null;
  benchmark: string | null;
  /**
   * Every instance the database holds, as instanceRef gives them: the worker has no database, and
   * which instance a log names is known only once it is read, so a log naming one is attached to
   * it as by `npm run ingest`.
   */
  ourInstances: { id: string; benchmark: string }[];
}

export type ForeignReply = { ok: true; outcomes: ForeignOutcome[] } | { ok: false; error: PostedError };

/**
 * Bundled by Next (Turbopack turns `new Worker(new URL(...))` into a worker chunk of its own, so
 * it runs under `next start` without TypeScript at run time). The call must keep this exact form.
 */
function spawnBundled(workerData: ForeignJob, options: WorkerOptions): Worker {
  return new Worker(new URL("./import-worker.ts", import.meta.url), { ...options, workerData });
}

/**
 * foreignBundles of one file, in a worker: every run as a parsed bundle or the error that kept it
 * out; rejects with the worker's AppError (an undetected body, 400) or the pool's (out of memory
 * or time, 413). `spawn` is for tests, which start the worker from TypeScript sources.
 */
export async function foreignBundlesInWorker(
  pool: ImportPool,
  job: ForeignJob,
  spawn: SpawnWorker<ForeignJob> = spawnBundled,
): Promise<ForeignOutcome[]> {
  const reply = await pool.run<ForeignJob, ForeignReply>(job, spawn, "the log");
  if (!reply.ok) throw errorFromWorker(reply.error);
  return reply.outcomes.map((outcome) => (outcome.ok ? { ...outcome, bundle: withBuffers(outcome.bundle) } : outcome));
}
