/**
 * Parsing uploads off the thread that serves pages. Each import gets a fresh worker thread with a
 * heap cap and a deadline, so a hostile upload can at worst fail its own request: before, one
 * 267 KB upload pinned the server's only JavaScript thread for over ten minutes and every page
 * stopped answering. A fixed number of imports run at once; past it the caller is told to come
 * back later (HTTP 503 with Retry-After) instead of queueing work without bound. Bundle archives
 * run in parse-worker.ts; foreign logs in lib/foreign/import-worker.ts, started through `run`.
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

/** An error as a worker posts it (class instances do not survive the structured clone). */
export type PostedError =
  { code: ErrorCode; location: BundleLocation; problem: string } | { code: ErrorCode; message: string };

export type WorkerReply =
  { ok: true; bundle: ParsedBundle; stats: ReadStats } | { ok: false; stats: ReadStats; error: PostedError };

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
  /** Starts the bundle worker; tests start it from TypeScript sources (tsx-worker.fixture.mjs). */
  spawn?: SpawnWorker<ParseJob>;
}

/**
 * Starts one worker entry with its job as workerData. Each entry's module has its own, written as
 * `new Worker(new URL("./entry.ts", import.meta.url), ...)` so Turbopack bundles that entry.
 */
export type SpawnWorker<Job> = (workerData: Job, options: WorkerOptions) => Worker;

/** What any import worker is given: the upload's bytes (moved, not copied, when they can be) and its name. */
export interface WorkerJob {
  data: Uint8Array;
  label: string;
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
  /**
   * Runs one job in a fresh worker started by `spawn`, under the same heap cap and deadline, and
   * resolves with the worker's one message as posted; rejects when the worker ran out of memory
   * or time (`subject`, "the log", names what it was reading), or ended without answering.
   */
  run<Job extends WorkerJob, Reply>(job: Job, spawn: SpawnWorker<Job>, subject: string): Promise<Reply>;
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
    parse: async (job) => {
      const reply = await runWorker<ParseJob, WorkerReply>(job, spawn, "the bundle", options);
      if (!reply.ok) throw errorFromWorker(reply.error);
      return { bundle: withBuffers(reply.bundle), stats: reply.stats };
    },
    run: (job, spawnJob, subject) => runWorker(job, spawnJob, subject, options),
  };
}

function runWorker<Job extends WorkerJob, Reply>(
  job: Job,
  spawn: SpawnWorker<Job>,
  subject: string,
  options: ImportPoolOptions,
): Promise<Reply> {
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
          reject(new AppError("TOO_LARGE", `${job.label}: reading ${subject} took over ${options.timeoutMs / 1000} s`)),
        ),
      options.timeoutMs,
    );
    worker.once("message", (reply: Reply) => settle(() => resolve(reply)));
    worker.once("error", (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new AppError(
                "TOO_LARGE",
                `${job.label}: ${subject} needs more than ${options.workerMemoryMb} MB to parse (STUDIO_IMPORT_WORKER_MEMORY_MB)`,
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

/** An error caught in a worker, to post back: a BundleError keeps its location, anything else its message. */
export function postedError(error: unknown): PostedError {
  if (error instanceof BundleError) return { code: error.code, location: error.location, problem: error.problem };
  if (error instanceof AppError) return { code: error.code, message: error.message };
  return { code: "INTERNAL", message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

/** The error a worker posted, as the AppError (or BundleError) it was. */
export function errorFromWorker(error: PostedError): AppError {
  if ("problem" in error) return new BundleError(error.location, error.problem, error.code);
  return new AppError(error.code, error.message);
}

/** Buffers arrive as plain Uint8Arrays from the structured clone: view them as Buffers again. */
export function withBuffers(bundle: ParsedBundle): ParsedBundle {
  for (const member of bundle.members) {
    const data = member.data as Uint8Array;
    member.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }
  return bundle;
}

/**
 * The members' large buffers, to move back from a worker instead of copying them: a bundle's
 * files and native logs would otherwise be held twice at the end. Small ones stay cloned: they may
 * sit in Node's shared buffer pool, which cannot be transferred.
 */
export function memberBuffersOf(bundles: readonly ParsedBundle[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const bundle of bundles) {
    for (const { data } of bundle.members) {
      if (data.buffer.byteLength >= 1024 * 1024 && data.buffer instanceof ArrayBuffer) buffers.add(data.buffer);
    }
  }
  return [...buffers];
}
