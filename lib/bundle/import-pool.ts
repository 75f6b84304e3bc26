/**
 * Parsing uploaded bundles off the thread that serves pages. Each import gets a fresh worker
 * thread with a heap cap and a deadline, so a hostile archive can at worst fail its own request:
 * before, one 267 KB upload pinned the server's only JavaScript thread for over ten minutes and
 * every page stopped answering. A fixed number of imports run at once; past it the caller is
 * told to come back later (HTTP 503 with Retry-After) instead of queueing work without bound.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";
import { AppError, type ErrorCode } from "@/lib/errors/app-error";
import type { ReadStats } from "./budget";
import { BundleError, type BundleLocation } from "./errors";
import type { ParsedBundle } from "./parse";
import type { ArchiveKind, ReadLimits } from "./read";

/** What a worker is given: plain data, cloned (or transferred) into the worker. */
export interface ParseJob {
  data: Uint8Array;
  kind: ArchiveKind;
  label: string;
  limits: ReadLimits;
}

export type WorkerReply =
  | { ok: true; bundle: ParsedBundle; stats: ReadStats }
  | {
      ok: false;
      stats: ReadStats;
      error: { code: ErrorCode; location: BundleLocation; problem: string } | { code: ErrorCode; message: string };
    };

export interface ImportPoolOptions {
  /** Imports at once (each holds a worker and its bundle in memory). */
  maxConcurrent: number;
  /**
   * The worker's V8 heap cap (resourceLimits.maxOldGenerationSizeMb). At the cap Node ends the
   * worker (a 413) after giving it 16 MB of leeway; one allocation larger than that at the cap
   * aborts the whole process instead (a test saw it with a 60 MB JSON string under a 48 MB cap).
   */
  workerMemoryMb: number;
  /** A worker still busy after this long is terminated. */
  timeoutMs: number;
  /** Seconds a refused caller is asked to wait (Retry-After). */
  retryAfterSeconds?: number;
  /** Starts the worker; tests start it from TypeScript sources (tsx-worker.fixture.mjs). */
  spawn?: (workerData: ParseJob, options: WorkerOptions) => Worker;
}

/** All import slots are taken: HTTP 503 with a Retry-After header. */
export class ImportBusyError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    maxConcurrent: number,
  ) {
    super("UNAVAILABLE", `${maxConcurrent} imports are already running: retry in ${retryAfterSeconds} s`);
  }
}

/**
 * Bundled by Next (Turbopack turns `new Worker(new URL(...))` into a worker chunk of its own, so
 * it runs under `next start` without TypeScript at run time). The call must keep this exact form.
 */
function spawnBundled(workerData: ParseJob, options: WorkerOptions): Worker {
  return new Worker(new URL("./parse-worker.ts", import.meta.url), { ...options, workerData });
}

export interface ImportPool {
  /** Takes an import slot or throws ImportBusyError; call the returned function to give it back. */
  acquire(): () => void;
  /** Reads and parses one archive in a fresh worker; rejects with the worker's AppError. */
  parse(job: ParseJob): Promise<{ bundle: ParsedBundle; stats: ReadStats }>;
  readonly active: number;
}

export function createImportPool(options: ImportPoolOptions): ImportPool {
  let active = 0;
  const spawn = options.spawn ?? spawnBundled;
  return {
    get active() {
      return active;
    },
    acquire() {
      if (active >= options.maxConcurrent) {
        throw new ImportBusyError(options.retryAfterSeconds ?? 5, options.maxConcurrent);
      }
      active++;
      let released = false;
      return () => {
        if (!released) active--;
        released = true;
      };
    },
    parse: (job) => runWorker(job, options, spawn),
  };
}

function runWorker(
  job: ParseJob,
  options: ImportPoolOptions,
  spawn: NonNullable<ImportPoolOptions["spawn"]>,
): Promise<{ bundle: ParsedBundle; stats: ReadStats }> {
  return new Promise((resolve, reject) => {
    // The upload's bytes move to the worker instead of being copied when they own their memory.
    const whole = job.data.byteOffset === 0 && job.data.byteLength === job.data.buffer.byteLength;
    const worker = spawn(job, {
      resourceLimits: { maxOldGenerationSizeMb: options.workerMemoryMb },
      transferList: whole ? [job.data.buffer as ArrayBuffer] : [],
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Answered only once the worker is gone, so the caller's slot is free only when its memory
      // is (a timed-out worker still parsing would otherwise overlap the next import's).
      void worker
        .terminate()
        .catch(() => undefined)
        .then(outcome);
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(new AppError("TOO_LARGE", `${job.label}: reading the bundle took over ${options.timeoutMs / 1000} s`)),
        ),
      options.timeoutMs,
    );
    worker.once("message", (reply: WorkerReply) =>
      settle(() =>
        reply.ok ? resolve({ bundle: withBuffers(reply.bundle), stats: reply.stats }) : reject(toError(reply)),
      ),
    );
    worker.once("error", (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new AppError(
                "TOO_LARGE",
                `${job.label}: the bundle needs more than ${options.workerMemoryMb} MB to parse (STUDIO_IMPORT_WORKER_MEMORY_MB)`,
              )
            : new AppError("INTERNAL", `import worker failed: ${error.message}`, { cause: error }),
        ),
      ),
    );
    worker.once("exit", (code) =>
      settle(() => reject(new AppError("INTERNAL", `import worker exited (code ${code}) without an answer`))),
    );
  });
}

function toError(reply: Extract<WorkerReply, { ok: false }>): AppError {
  const { error } = reply;
  if ("problem" in error) return new BundleError(error.location, error.problem, error.code);
  return new AppError(error.code, error.message);
}

/** Buffers arrive as plain Uint8Arrays from the structured clone: view them as Buffers again. */
function withBuffers(bundle: ParsedBundle): ParsedBundle {
  for (const member of bundle.members) {
    const data = member.data as Uint8Array;
    member.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }
  return bundle;
}
