/**
 * Test support: starts a worker from TypeScript sources. Under Next the worker is bundled
 * (import-pool.ts); vitest's workers run plain Node, which cannot load .ts, so tests start this
 * file with `workerData.entry` naming the .ts module to run through tsx.
 */
import { workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

await tsImport(workerData.entry, import.meta.url);
