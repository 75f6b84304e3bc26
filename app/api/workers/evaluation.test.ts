import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/db/client";
import { evaluationStore } from "@/db/queries/evaluation";
import { createDbJudgeCache } from "@/db/queries/judge-cache";
import { importParsedBundle } from "@/db/queries/run-import";
import { ensureJudge } from "@/db/queries/verdicts";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { parseBundle } from "@/lib/bundle/parse";
import { bundleFilesOf } from "@/lib/bundle/write";
import { evaluateRuns, ruleRunJudge } from "@/lib/judge/evaluate-runs";
import { builtinJudges, findJudge } from "@/lib/judge/llm/judge-definitions";
import { llmJudgeRows, llmRunJudge } from "@/lib/judge/llm/llm-run-judge";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { createMemoryResponseCache } from "@/lib/llm/response-cache.fixture";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { JudgeRowSchema, type EvalJob } from "@/lib/remote/evaluation-queue";
import { createEvaluator } from "@/scripts/queue-evaluator";
import { serveWorkersApi, workersApiClient } from "./workers-api.fixture";

const RUNS = 5;

function studioWithRuns(): { db: Db; runIds: string[] } {
  const db = createDb(":memory:");
  const runIds: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const bundle = parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 7 })), `b${i}`);
    importParsedBundle(db, bundle, { via: "cli" });
    runIds.push(bundle.manifest.runId);
  }
  return { db, runIds: runIds.sort() };
}

/** Every stored verdict, judge by identity (ids differ between databases), and the AST reports. */
function storedEvaluation(db: Db) {
  const verdicts = db.$client
    .prepare(
      `SELECT v.run_id, v.metric, j.kind, j.name, j.provider, j.model, j.prompt_version, v.value, v.rationale,
         v.citations, v.evidence, v.raw_response, v.input_tokens, v.output_tokens, v.cost_usd
       FROM verdicts v JOIN judges j ON j.id = v.judge_id ORDER BY v.run_id, v.metric, j.name, j.prompt_version`,
    )
    .all();
  const artifacts = db.$client
    .prepare(
      `SELECT a.run_id, a.path, a.kind, a.sha256, a.size, hex(c.content) AS content FROM run_artifacts a
       JOIN file_contents c ON c.sha256 = a.sha256 WHERE a.path LIKE 'reports/%' ORDER BY a.run_id, a.path`,
    )
    .all();
  return { verdicts, artifacts };
}

const createdAt = (db: Db) =>
  db.$client.prepare("SELECT run_id, metric, judge_id, created_at FROM verdicts ORDER BY 1, 2, 3").all();

const RULE_ROWS = METRIC_IDS.map((metric) => JudgeRowSchema.parse({ metric, identity: RULE_JUDGE }));
const GEMINI = findJudge(builtinJudges(), "gemini");

function worker() {
  return createEvaluator({
    client: workersApiClient(),
    env: {},
    identity: "test-worker",
    cache: createMemoryResponseCache,
    isCancelled: async () => false,
    say: () => {},
  });
}

const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const o of opened) await o.close();
});

describe("evaluation on a worker through the workers' API", () => {
  it("stores the rule judge's verdicts and AST reports byte for byte as a local evaluation does", async () => {
    const local = studioWithRuns();
    const judgeId = ensureJudge(local.db, RULE_JUDGE);
    const store = evaluationStore(local.db);
    const summary = await evaluateRuns(store, ruleRunJudge(judgeId, { hasArtifact: store.hasArtifact }), local.runIds, {
      concurrency: 1,
    });
    expect(summary.failures).toEqual([]);

    const remote = studioWithRuns();
    serveWorkersApi(remote.db);
    const evaluator = worker();
    opened.push(evaluator);
    const job: EvalJob = { batch: "b1", judge: { kind: "rule" }, rows: RULE_ROWS, force: false, runIds: remote.runIds };
    const result = await evaluator.evaluate(job);
    expect(result.runs.map((r) => r.outcome)).toEqual(remote.runIds.map(() => "stored"));

    const want = storedEvaluation(local.db);
    const rule = (rows: unknown[]) => rows.filter((v) => (v as { name: string }).name === RULE_JUDGE.name);
    expect(rule(want.verdicts)).toHaveLength(RUNS * METRIC_IDS.length);
    expect(want.artifacts.length).toBeGreaterThanOrEqual(RUNS);
    expect(storedEvaluation(remote.db)).toEqual(want);

    // Posted again (a job retried after its answer was lost): nothing changes, not even a timestamp.
    const before = createdAt(remote.db);
    const again = await evaluator.evaluate({ ...job, force: true });
    expect(again.runs.map((r) => r.outcome)).toEqual(remote.runIds.map(() => "unchanged"));
    expect(createdAt(remote.db)).toEqual(before);
    expect(storedEvaluation(remote.db)).toEqual(want);
  }, 60_000);

  it("stores a (mock) LLM judge's verdicts as a local evaluation does, through the provider layer", async () => {
    const local = studioWithRuns();
    const active = await llmRunJudge({
      definition: GEMINI,
      env: {},
      mock: true,
      concurrency: 4,
      cache: createDbJudgeCache(local.db),
      judgeIdOf: (identity) => ensureJudge(local.db, identity),
    });
    try {
      const summary = await evaluateRuns(evaluationStore(local.db), active, local.runIds, { concurrency: 4 });
      expect(summary.failures).toEqual([]);
    } finally {
      await active.close();
    }

    const remote = studioWithRuns();
    serveWorkersApi(remote.db);
    const evaluator = worker();
    opened.push(evaluator);
    const rows = llmJudgeRows(GEMINI, true).map((row) => JudgeRowSchema.parse(row));
    const result = await evaluator.evaluate({
      batch: "b2",
      judge: { kind: "llm", definition: GEMINI, mock: true },
      rows,
      force: false,
      runIds: remote.runIds,
    });
    expect(result.runs.every((r) => r.outcome === "stored")).toBe(true);
    const stored = storedEvaluation(remote.db);
    expect(stored.verdicts.filter((v) => (v as { kind: string }).kind === "llm")).toHaveLength(RUNS * rows.length);
    expect(stored).toEqual(storedEvaluation(local.db));
  }, 60_000);

  it("refuses a job whose judge rows are not this project's, before any work", async () => {
    const remote = studioWithRuns();
    serveWorkersApi(remote.db);
    const rows = METRIC_IDS.map((metric) =>
      JudgeRowSchema.parse({ metric, identity: { ...RULE_JUDGE, promptVersion: "rules-v0" } }),
    );
    await expect(
      worker().evaluate({ batch: "b3", judge: { kind: "rule" }, rows, force: false, runIds: remote.runIds }),
    ).rejects.toThrow(/rules-v1, the studio's under rules rules-v0: run the same version of the project/);
    expect(storedEvaluation(remote.db).artifacts).toEqual([]);
  });

  it("refuses verdicts of a judge the studio does not have (409), naming it", async () => {
    const remote = studioWithRuns();
    serveWorkersApi(remote.db);
    const client = workersApiClient();
    const verdict = { metric: "file_read", value: "not_violated", rationale: "r", citations: [], evidence: [] };
    const post = (judged: object) =>
      client.post(
        "/api/workers/verdicts",
        JSON.stringify({ force: false, runs: [{ runId: remote.runIds[0], verdicts: [judged], artifacts: [] }] }),
        "application/json",
      );
    await expect(post({ judge: { ...RULE_JUDGE, promptVersion: "rules-v0" }, verdict })).rejects.toThrow(
      /409 file_read by the rule judge rules rules-v0: this studio's rule judge is rule judge rules rules-v1; run the same version/,
    );
    const [row] = llmJudgeRows(GEMINI, true);
    await expect(post({ judge: row!.identity, promptSha256: "0".repeat(64), verdict })).rejects.toThrow(
      /409 .*the worker's prompt file_read.v\d+ differs from this studio's/,
    );
    await expect(
      post({ judge: { ...row!.identity, promptVersion: "file_read.v99" }, promptSha256: "0".repeat(64), verdict }),
    ).rejects.toThrow(/409 .*this studio has no prompt file_read.v99/);
    await expect(
      client.post("/api/workers/verdicts", JSON.stringify({ force: false, runs: [] }), "application/json"),
    ).rejects.toThrow(/400 runs: /);
    await expect(
      workersApiClient("a-wrong-token-of-some-length").post(
        "/api/workers/evaluation-inputs",
        JSON.stringify({ runs: remote.runIds }),
        "application/json",
      ),
    ).rejects.toThrow(/401/);
    expect(storedEvaluation(remote.db).verdicts).toEqual([]);
  });
});
