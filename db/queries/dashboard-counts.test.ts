import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { scaleRun } from "@/lib/dashboard/scale-runs";
import { verdict } from "@/lib/judge/schema";
import { METRICS, metricBit } from "@/lib/metrics/catalog";
import { createDb, type Db } from "../client";
import { importParsedBundle } from "./run-import";
import { searchRuns, type RunsFilter } from "./runs";
import { insertScaleRuns, scaleInstances } from "./synthetic-runs";
import { saveVerdicts } from "./verdicts";

interface MaskRow {
  judge_id: number;
  benchmark_id: string;
  family: string;
  framework: string;
  model: string;
  mitigation: string;
  in_eval_split: number;
  subtask_id: string;
  agent_config_id: string;
  violated_mask: number;
  decided_mask: number;
  task_completed: number | null;
}
type MetricCountRow = MaskRow & { bit: number; runs: number; violated: number; decided: number };

const metricKey = (row: MaskRow, bit: number) =>
  [
    row.judge_id,
    row.benchmark_id,
    row.family,
    row.framework,
    row.model,
    row.mitigation,
    bit,
    row.in_eval_split,
    row.subtask_id,
    row.agent_config_id,
  ].join("|");

/** metric_counts as counted here from the masks: each decided metric's bit, and -1 for the run. */
function metricCountsOf(masks: MaskRow[]): string[] {
  const counted = new Map<string, [number, number, number]>();
  const add = (key: string, violated: boolean, decided: boolean) => {
    const [runs, v, d] = counted.get(key) ?? [0, 0, 0];
    counted.set(key, [runs + 1, v + Number(violated), d + Number(decided)]);
  };
  for (const row of masks) {
    add(metricKey(row, -1), row.task_completed === 1, row.task_completed !== null);
    for (const { bit } of METRICS) {
      if (row.decided_mask & (1 << bit)) add(metricKey(row, bit), (row.violated_mask & (1 << bit)) !== 0, true);
    }
  }
  return [...counted].map(([key, [runs, v, d]]) => `${key} ${runs} ${v} ${d}`).sort();
}

/** The counts tables, and what a GROUP BY of the rows they count gives. */
function counts(db: Db) {
  const all = (q: string) => db.$client.prepare(q).all();
  const masks = `judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id`;
  const metrics = `judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id`;
  const facts = `benchmark_id, subtask_id, framework, model, mitigation, status, disagreement`;
  return {
    masks: all(`SELECT ${masks}, runs FROM mask_counts ORDER BY ${masks}`),
    masksExpected: all(
      `SELECT ${masks}, count(*) AS runs FROM (SELECT judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask,
        COALESCE(task_completed, -1) AS task_completed, in_eval_split, subtask_id, agent_config_id FROM run_judge_masks)
       GROUP BY ${masks} ORDER BY ${masks}`,
    ),
    metrics: (all(`SELECT ${metrics}, runs, violated, decided FROM metric_counts`) as MetricCountRow[])
      .map((row) => `${metricKey(row, row.bit)} ${row.runs} ${row.violated} ${row.decided}`)
      .sort(),
    metricsExpected: metricCountsOf(all("SELECT * FROM run_judge_masks") as MaskRow[]),
    facts: all(`SELECT ${facts}, runs FROM run_fact_counts ORDER BY ${facts}`),
    factsExpected: all(
      `SELECT ${facts}, count(*) AS runs FROM (SELECT benchmark_id, subtask_id, framework, model, mitigation, status,
        disagreement_mask <> 0 AS disagreement FROM run_facts) GROUP BY ${facts} ORDER BY ${facts}`,
    ),
  };
}

function expectCounted(db: Db) {
  const got = counts(db);
  expect(got.masks).toEqual(got.masksExpected);
  expect(got.metrics).toEqual(got.metricsExpected);
  expect(got.facts).toEqual(got.factsExpected);
  return got;
}

describe("mask_counts, metric_counts and run_fact_counts (the triggers of migrations 0013 and 0015)", () => {
  it("count the masks and facts through imports, bulk inserts, new verdicts, run and split updates, and deletes", () => {
    const db = createDb(":memory:");
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const record = generatedRunRecord({ index: i, seed: 5 });
      ids.push(importParsedBundle(db, parseBundle(bundleFilesOf(record), `b${i}`), { via: "cli" }).runId);
    }
    insertScaleRuns(
      db,
      Array.from({ length: 120 }, (_, i) => scaleRun(i, 5, scaleInstances(db, "synthetic"))),
    );
    const seeded = expectCounted(db);
    expect(seeded.masks.length).toBeGreaterThan(20);
    expect(seeded.metrics.length).toBeGreaterThan(100);
    expect(seeded.facts.length).toBeGreaterThan(10);

    // A judge's changed verdict moves its run to another mask combination and may make judges disagree.
    const judge = db.$client.prepare("SELECT id FROM judges WHERE kind = 'llm'").get() as { id: number };
    const scaleId = "synthetic-scale-5-0000003";
    saveVerdicts(db, scaleId, judge.id, [
      verdict("file_read", "violated", "changed"),
      verdict("syntax", "violated", "x"),
    ]);
    saveVerdicts(db, ids[0]!, judge.id, [verdict("context", "violated", "new judge on an imported run")]);
    expectCounted(db);
    // Task completion and the eval split are copied into the masks by the triggers of 0002.
    db.$client
      .prepare("UPDATE runs SET task_completed = NULL, status = 'failed' WHERE id IN (?, ?)")
      .run(scaleId, ids[1]);
    db.$client
      .prepare(
        "UPDATE instances SET in_eval_split = 1 - in_eval_split WHERE id IN (SELECT instance_id FROM runs WHERE id = ?)",
      )
      .run(scaleId);
    expectCounted(db);
    // Deleting runs (and with them their facts and masks) takes them out; empty combinations go.
    db.$client.prepare("DELETE FROM runs WHERE id LIKE 'synthetic-scale-5-00000%'").run();
    const left = expectCounted(db);
    expect(left.masks.every((row) => (row as { runs: number }).runs > 0)).toBe(true);
    db.$client.prepare("DELETE FROM runs").run();
    expect(expectCounted(db)).toMatchObject({ masks: [], facts: [] });
  });
});

describe("the runs browser's totals from the counts tables", () => {
  const db = createDb(":memory:");
  for (let i = 0; i < 6; i++) {
    importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 5 })), `b${i}`), {
      via: "cli",
    });
  }
  insertScaleRuns(
    db,
    Array.from({ length: 300 }, (_, i) => scaleRun(i, 6, scaleInstances(db, "synthetic"))),
  );
  const judgeId = (db.$client.prepare("SELECT id FROM judges WHERE kind = 'rule'").get() as { id: number }).id;

  /** COUNT(*) over the rows, as the browser counted before the counts tables. */
  function direct(filter: Partial<RunsFilter>): number {
    const where = [
      filter.benchmarkId ? `f.benchmark_id = '${filter.benchmarkId}'` : "1",
      filter.metric ? `(m.violated_mask & ${metricBit(filter.metric)}) != 0` : "1",
      filter.metric || filter.sort === "violations" ? "m.run_id IS NOT NULL" : "1",
      filter.subtaskId ? `f.subtask_id = '${filter.subtaskId}'` : "1",
      filter.framework ? `f.framework = '${filter.framework}'` : "1",
      filter.model ? `f.model = '${filter.model}'` : "1",
      filter.mitigation ? `f.mitigation = '${filter.mitigation}'` : "1",
      filter.status ? `f.status = '${filter.status}'` : "1",
      filter.disagreement ? "f.disagreement_mask <> 0" : "1",
    ].join(" AND ");
    return (
      db.$client
        .prepare(
          `SELECT count(*) AS n FROM run_facts f LEFT JOIN run_judge_masks m ON m.run_id = f.run_id AND m.judge_id = ? WHERE ${where}`,
        )
        .get(judgeId) as { n: number }
    ).n;
  }

  const filters: Partial<RunsFilter>[] = [
    {},
    { benchmarkId: "synthetic" },
    { benchmarkId: "sample-that-is-not-there" },
    { metric: "file_read" },
    { sort: "violations" },
    { metric: "file_create", mitigation: "codekit", framework: "smolagents" },
    { metric: "context", subtaskId: "testing", model: "gpt-5" },
    { mitigation: "codekit" },
    { subtaskId: "testing", framework: "openhands", model: "gpt-5" },
    { status: "failed" },
    { disagreement: true, mitigation: "none" },
    { metric: "resource_exhaustion", status: "failed" },
    { metric: "file_read", disagreement: true },
  ];
  it.each(filters.map((f) => [JSON.stringify(f), f] as const))("%s", (_name, filter) => {
    const total = searchRuns(db, { judgeId, sort: "started", dir: "desc", limit: 5, offset: 0, ...filter }).total;
    expect(total).toBe(direct(filter));
  });

  it("has runs in most of the cases above", () => {
    expect(filters.filter((f) => direct(f) > 0).length).toBeGreaterThan(9);
  });
});
