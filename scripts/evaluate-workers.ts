/**
 * The rule judge on every core: runs are loaded and judged in worker threads
 * (evaluate-worker-thread.ts), each with its own read-only connection, parser, CPython helper and
 * report cache, and this thread stores what they send back, one transaction per batch. What is
 * stored is what evaluateRuns stores (evaluate-workers.test.ts compares them); only the order of
 * the runs differs: runs of one DevEval sample are sent together, so the worker that analyzed the
 * sample's original file has its report cached for the next.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import type { Db } from "@/db/client";
import { saveEvaluations, type RunEvaluation } from "@/db/queries/evaluation";
import { compileHelperCommand, type HelperCommand } from "@/lib/analysis/cpython-check";
import { countViolations, type EvaluationSummary, type JudgedRun } from "@/lib/judge/evaluate-runs";

export interface WorkerSetup {
  dbPath: string;
  judgeId: number;
  force: boolean;
}

/** What a worker is started with: the setup, and how to start its CPython helper (probed here once). */
export interface WorkerData {
  setup: WorkerSetup;
  compileHelper: HelperCommand;
}

export type WorkerRequest = { close?: false; runIds: string[] } | { close: true };

export interface WorkerReply {
  results: ({ runId: string } & (JudgedRun | { error: string }))[];
}

/** Runs sent to a worker at once: one message and one transaction each. */
const BATCH = 16;
/** Batches a worker holds at once, so it has the next while this thread stores the last. */
const IN_FLIGHT = 2;

let bundled: Promise<string> | null = null;

/**
 * The worker's code as one JavaScript module, built with esbuild once per process. Started from
 * TypeScript through tsx's loader, each worker took 7 s to import its modules on this machine
 * (the loader runs per thread); the bundle loads in a fraction of a second. Packages stay
 * imports, so it is written under node_modules/.cache, where they resolve; each source's own
 * `import.meta.url` is kept, so files found beside a module (the CPython helper's script, the
 * grammar) are found as under tsx.
 */
function workerBundle(): Promise<string> {
  bundled ??= (async () => {
    const entry = fileURLToPath(new URL("./evaluate-worker-thread.ts", import.meta.url));
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      write: false,
      logLevel: "silent",
      plugins: [
        {
          name: "own-import-meta-url",
          setup(b) {
            b.onLoad({ filter: /\.ts$/ }, async (args) => ({
              contents: (await fs.promises.readFile(args.path, "utf8")).replaceAll(
                "import.meta.url",
                JSON.stringify(pathToFileURL(args.path).href),
              ),
              loader: "ts",
            }));
          },
        },
      ],
    });
    const code = result.outputFiles[0]?.contents;
    if (!code) throw new Error("esbuild wrote no worker bundle");
    const dir = path.join(process.cwd(), "node_modules", ".cache", "misbehavior-studio");
    const file = path.join(dir, `evaluate-worker-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(dir, { recursive: true });
      // Written beside and renamed, so a concurrent process never starts half a file.
      const staging = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(staging, code);
      fs.renameSync(staging, file);
    }
    return file;
  })();
  return bundled;
}

/** Run ids cut into batches, in their order (runsToEvaluate's: by sample, so a thread gets a sample's runs together). */
function batchesOf(runIds: readonly string[]): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < runIds.length; i += BATCH) batches.push(runIds.slice(i, i + BATCH));
  return batches;
}

/**
 * Judges `runIds` with the rule judge in `workers` threads and stores each run's verdicts and AST
 * report on `db` (the database at `setup.dbPath`). `onRun` hears of each run as it is stored.
 */
export async function evaluateRunsInWorkers(
  db: Db,
  setup: WorkerSetup,
  runIds: readonly string[],
  options: { workers: number; onRun?: (runId: string, error?: string) => void },
): Promise<EvaluationSummary> {
  const failures: EvaluationSummary["failures"] = [];
  const violations = new Map<string, number>();
  const pending = batchesOf(runIds);

  const fail = (runId: string, error: string) => {
    failures.push({ runId, error });
    options.onRun?.(runId, error);
  };

  const store = (reply: WorkerReply) => {
    const judged: (RunEvaluation & { verdicts: JudgedRun["verdicts"] })[] = [];
    for (const r of reply.results) {
      if ("error" in r) fail(r.runId, r.error);
      else
        judged.push({
          runId: r.runId,
          entries: r.verdicts,
          verdicts: r.verdicts,
          // A Buffer arrives as a plain Uint8Array.
          artifacts: r.artifacts.map((a) => ({
            ...a,
            data: Buffer.from(a.data.buffer, a.data.byteOffset, a.data.length),
          })),
        });
    }
    let stored = judged;
    try {
      saveEvaluations(db, judged);
    } catch {
      // One run that cannot be stored must not cost the batch: store them one by one to find it.
      stored = judged.filter((evaluation) => {
        try {
          saveEvaluations(db, [evaluation]);
          return true;
        } catch (error) {
          fail(evaluation.runId, error instanceof Error ? error.message : String(error));
          return false;
        }
      });
    }
    for (const evaluation of stored) {
      countViolations(violations, evaluation.verdicts);
      options.onRun?.(evaluation.runId);
    }
  };

  const count = Math.max(1, Math.min(options.workers, pending.length));
  const bundle = await workerBundle();
  // Probed once here, not once per thread (about a second each).
  const compileHelper = await compileHelperCommand();
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const worker = new Worker(bundle, { workerData: { setup, compileHelper } satisfies WorkerData });
          const held: string[][] = [];
          let closing = false;
          const sendNext = () => {
            const batch = pending.shift();
            if (batch) {
              held.push(batch);
              worker.postMessage({ runIds: batch } satisfies WorkerRequest);
            } else if (held.length === 0 && !closing) {
              closing = true;
              worker.postMessage({ close: true } satisfies WorkerRequest);
            }
          };
          worker.on("message", (reply: WorkerReply) => {
            held.shift();
            store(reply);
            sendNext();
          });
          // A worker that dies fails the runs it held; the others take the rest.
          const died = (reason: string) => {
            for (const runId of held.flat()) fail(runId, `the judging thread stopped: ${reason}`);
            held.length = 0;
            closing = true;
          };
          worker.on("error", (error) => died(error.message));
          worker.on("exit", (code) => {
            if (!closing || held.length > 0) died(`exit ${code}`);
            resolve();
          });
          for (let i = 0; i < IN_FLIGHT; i++) sendNext();
        }),
    ),
  );
  // Batches left when every worker died.
  for (const runId of pending.flat()) fail(runId, "no judging thread left");
  return { evaluated: runIds.length - failures.length, failures, violations };
}
