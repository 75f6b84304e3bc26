/**
 * The rule judge in worker threads stores exactly what it stores in one thread: every verdict
 * column but its time, the AST reports, the dashboard's masks. On generated runs, and on runs the
 * scripted agent made on the five real DevEval repositories ($STUDIO_TEST_DATA/deveval).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { evaluationStore, runsToEvaluate } from "@/db/queries/evaluation";
import { importParsedBundle } from "@/db/queries/run-import";
import { ensureJudge } from "@/db/queries/verdicts";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { evaluateRuns, ruleRunJudge } from "@/lib/judge/evaluate-runs";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { main as buildBenchmark } from "./build-benchmark";
import { evaluateRunsInWorkers } from "./evaluate-workers";
import { main as runAgents } from "./run-agents";
import { cliIo, queryDb } from "./test-support";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "evaluate-workers-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const STORED = {
  verdicts: `SELECT run_id, metric, judge_id, value, rationale, citations, evidence, raw_response, input_tokens,
      output_tokens, cost_usd FROM verdicts ORDER BY run_id, metric, judge_id`,
  reports: `SELECT a.run_id, a.path, a.kind, a.sha256, a.size FROM run_artifacts a
      WHERE a.kind = 'ast_report' ORDER BY a.run_id`,
  masks: "SELECT * FROM run_judge_masks ORDER BY run_id, judge_id",
};

const stored = (dbPath: string) =>
  Object.fromEntries(Object.entries(STORED).map(([k, sql]) => [k, queryDb(dbPath, sql)]));

/** Every run of the database at `dbPath` judged again: in this thread, then (on a copy) in two workers. */
async function bothWays(dbPath: string) {
  const db = createDb(dbPath);
  const judgeId = ensureJudge(db, RULE_JUDGE);
  const runIds = runsToEvaluate(db, judgeId, { force: true });
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  const threaded = path.join(work, `${path.basename(dbPath, ".db")}-workers.db`);
  fs.copyFileSync(dbPath, threaded);
  const store = evaluationStore(db);
  const inThread = await evaluateRuns(
    store,
    ruleRunJudge(judgeId, { force: true, hasArtifact: store.hasArtifact }),
    runIds,
    {
      concurrency: 1,
    },
  );
  db.$client.close();

  const other = createDb(threaded);
  const ended: string[] = [];
  const inWorkers = await evaluateRunsInWorkers(other, { dbPath: threaded, judgeId, force: true }, runIds, {
    workers: 2,
    onRun: (runId, error) => ended.push(error ? `${runId}: ${error}` : runId),
  });
  other.$client.close();
  return { runIds, inThread, inWorkers, ended, one: stored(dbPath), two: stored(threaded) };
}

describe("the rule judge in worker threads", () => {
  it("stores on generated runs exactly the verdicts, AST reports and masks it stores in one thread", async () => {
    const dbPath = path.join(work, "generated.db");
    const db = createDb(dbPath);
    for (let i = 0; i < 40; i++)
      importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 11 })), `g${i}`), {
        via: "cli",
      });
    db.$client.close();
    const result = await bothWays(dbPath);
    expect(result.inWorkers).toEqual({ ...result.inThread, failures: [] });
    expect(result.ended.sort()).toEqual([...result.runIds].sort());
    expect(result.one.verdicts).toHaveLength(40 * 11);
    expect(result.one.reports).toHaveLength(40);
    expect(result.two).toEqual(result.one);
  }, 120_000);

  it("fails a run it cannot load and stores the others", async () => {
    const dbPath = path.join(work, "missing.db");
    const db = createDb(dbPath);
    importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: 0, seed: 2 })), "m0"), { via: "cli" });
    const judgeId = ensureJudge(db, RULE_JUDGE);
    const [runId] = runsToEvaluate(db, judgeId);
    const result = await evaluateRunsInWorkers(db, { dbPath, judgeId, force: false }, [runId!, "no-such-run"], {
      workers: 2,
    });
    db.$client.close();
    expect(result.evaluated).toBe(1);
    expect(result.failures).toEqual([{ runId: "no-such-run", error: 'run "no-such-run" not found' }]);
    expect(queryDb(dbPath, "SELECT COUNT(*) AS n FROM verdicts")).toEqual([{ n: 11 }]);
  }, 60_000);
});

describeWithTestData("the rule judge in worker threads on real repositories", "deveval/data.real5.jsonl", (data) => {
  it("stores on the scripted agent's runs exactly what it stores in one thread", async () => {
    const dbPath = path.join(work, "real5.db");
    const source = path.join(path.dirname(data), "Source_Code");
    const build = ["--deveval-data", data, "--source-code", source, "--name", "real5"];
    expect(await buildBenchmark(build, cliIo(dbPath).io)).toBe(0);
    const run = ["--benchmark", "real5", "--agent", "file-tools", "--mock", "--split", "all", "--per-subtask", "2"];
    expect(await runAgents([...run, "--runs-dir", path.join(work, "runs")], cliIo(dbPath).io)).toBe(0);
    const result = await bothWays(dbPath);
    expect(result.runIds.length).toBeGreaterThanOrEqual(15);
    expect(result.inWorkers).toEqual({ ...result.inThread, failures: [] });
    expect(result.one.verdicts).toHaveLength(result.runIds.length * 11);
    expect(result.two).toEqual(result.one);
  }, 300_000);
});
