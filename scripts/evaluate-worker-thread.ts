/**
 * One worker thread of the parallel rule judge (evaluate-workers.ts). It has its own read-only
 * connection, tree-sitter parser, CPython helper and report cache; it loads and judges the runs it
 * is sent, a batch at a time, and posts back each run's verdicts and artifacts (or its error) for
 * the main thread to store.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDbReadOnly } from "@/db/client";
import { evaluationStore } from "@/db/queries/evaluation";
import { stopCompileHelper, setCompileHelperCommand } from "@/lib/analysis/cpython-check";
import { loadPythonParser } from "@/lib/analysis/python-parser";
import { judgeRun, ruleRunJudge } from "@/lib/judge/evaluate-runs";
import type { WorkerData, WorkerReply, WorkerRequest } from "./evaluate-workers";

const port = parentPort!;
const { setup, compileHelper } = workerData as WorkerData;
setCompileHelperCommand(compileHelper);
const db = openDbReadOnly(setup.dbPath);
const store = evaluationStore(db);
const judge = ruleRunJudge(setup.judgeId, { force: setup.force, hasArtifact: store.hasArtifact });

async function judgeBatch(runIds: readonly string[]): Promise<WorkerReply> {
  const results: WorkerReply["results"] = [];
  for (const runId of runIds) {
    try {
      results.push({ runId, ...(await judgeRun(store.load, judge, runId)) });
    } catch (error) {
      results.push({ runId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { results };
}

// Batches are judged one after the other, in the order they came.
let queue: Promise<unknown> = loadPythonParser();
port.on("message", (request: WorkerRequest) => {
  queue = queue.then(async () => {
    if (request.close) {
      stopCompileHelper();
      db.$client.close();
      port.close();
      return;
    }
    // Copied, not transferred: a small Buffer's memory is a slice of Node's shared pool.
    port.postMessage(await judgeBatch(request.runIds));
  });
});
