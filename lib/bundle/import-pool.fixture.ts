/** Test support: import pools and workers that run from TypeScript sources (tsx-worker.fixture.mjs). */
import { Worker } from "node:worker_threads";
import { createImportPool, type ImportPool, type ImportPoolOptions, type SpawnWorker } from "./import-pool";

/** Starts the worker entry `entry` (a .ts module's URL) through tsx, as Next would start its bundled chunk. */
export function sourceSpawn<Job>(entry: URL): SpawnWorker<Job> {
  return (workerData, workerOptions) =>
    new Worker(new URL("./tsx-worker.fixture.mjs", import.meta.url), {
      ...workerOptions,
      workerData: { ...workerData, entry: entry.href },
    });
}

export function sourceImportPool(options: Omit<ImportPoolOptions, "spawn">): ImportPool {
  return createImportPool({ ...options, spawn: sourceSpawn(new URL("./parse-worker.ts", import.meta.url)) });
}
