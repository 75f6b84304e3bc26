/** Test support: an import pool whose workers run from TypeScript sources (tsx-worker.fixture.mjs). */
import { Worker } from "node:worker_threads";
import { createImportPool, type ImportPool, type ImportPoolOptions } from "./import-pool";

export function sourceImportPool(options: Omit<ImportPoolOptions, "spawn">): ImportPool {
  const entry = new URL("./parse-worker.ts", import.meta.url).href;
  return createImportPool({
    ...options,
    spawn: (workerData, workerOptions) =>
      new Worker(new URL("./tsx-worker.fixture.mjs", import.meta.url), {
        ...workerOptions,
        workerData: { ...workerData, entry },
      }),
  });
}
