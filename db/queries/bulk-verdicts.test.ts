import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { createDb, type Db } from "../client";
import { writeVerdictsInBulk } from "./bulk-verdicts";
import { saveEvaluations, saveJudgedVerdicts, type RunEvaluation } from "./evaluation";
import { importParsedBundle } from "./run-import";
import { ensureJudge, type VerdictEntry } from "./verdicts";

/** 12 imported runs with their verdicts, and an agreement set holding four of them. */
function base(): { db: Db; runIds: string[] } {
  const db = createDb(":memory:");
  for (let i = 0; i < 12; i++) {
    importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 4 })), `b${i}`), {
      via: "cli",
    });
  }
  const runIds = db.$client
    .prepare<[], { id: string }>("SELECT id FROM runs ORDER BY id")
    .all()
    .map((r) => r.id);
  db.$client.prepare("INSERT INTO agreement_sets (name, seed, size, design) VALUES ('s', 1, 4, '{}')").run();
  const item = db.$client.prepare("INSERT INTO agreement_items (set_id, run_id, position) VALUES (1, ?, ?)");
  runIds.slice(0, 4).forEach((id, i) => item.run(id, i));
  return { db, runIds };
}

/** Every row the verdict triggers derive, the counts their own triggers keep, and the triggers themselves. */
function derived(db: Db) {
  const all = (q: string) => db.$client.prepare(q).all();
  return {
    verdicts: all("SELECT run_id, metric, judge_id, value, rationale FROM verdicts ORDER BY 1, 2, 3"),
    facts: all("SELECT * FROM run_facts ORDER BY id"),
    masks: all("SELECT * FROM run_judge_masks ORDER BY run_id, judge_id"),
    maskCounts: all("SELECT * FROM mask_counts ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12"),
    metricCounts: all("SELECT * FROM metric_counts ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"),
    factCounts: all("SELECT * FROM run_fact_counts ORDER BY 1, 2, 3, 4, 5, 6, 7"),
    triggers: all("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"),
  };
}

const reportVersion = (db: Db) =>
  (db.$client.prepare("SELECT report_version AS v FROM agreement_sets").get() as { v: number }).v;

/**
 * Each run judged by a new judge (all metrics) and again by the bundles' rule judge (replacing
 * its verdicts), with values that make the two judges disagree on some metrics.
 */
function evaluationsOf(db: Db, runIds: readonly string[]): RunEvaluation[] {
  const values = ["violated", "not_violated", "not_applicable"] as const;
  const fresh = ensureJudge(db, { kind: "rule", name: "another rule judge" });
  const existing = ensureJudge(db, { kind: "rule", name: "rules" });
  return runIds.map((runId, r) => ({
    runId,
    artifacts: [],
    entries: [fresh, existing].flatMap((judgeId, j): VerdictEntry[] =>
      METRIC_IDS.map((metric, m) => ({
        judgeId,
        verdict: { metric, value: values[(r + m + j) % 3]!, rationale: `r${r} m${m} j${j}`, citations: [] },
      })),
    ),
  }));
}

describe("writeVerdictsInBulk", () => {
  it("leaves the rows the verdict triggers leave, one run at a time or in a batch", () => {
    const reference = base();
    const bulk = base();
    const versionBefore = reportVersion(reference.db);
    for (const e of evaluationsOf(reference.db, reference.runIds)) saveJudgedVerdicts(reference.db, e.runId, e.entries);
    const evaluations = evaluationsOf(bulk.db, bulk.runIds);
    saveEvaluations(bulk.db, evaluations.slice(0, 5));
    saveEvaluations(bulk.db, evaluations.slice(5));
    const got = derived(bulk.db);
    expect(got.masks.length).toBeGreaterThanOrEqual(24);
    expect(got.facts.some((f) => (f as { disagreement_mask: number }).disagreement_mask !== 0)).toBe(true);
    expect(got).toEqual(derived(reference.db));
    // The set's report is stale either way (bumped once per batch here, once per verdict there).
    expect(reportVersion(bulk.db)).toBeGreaterThan(versionBefore);
    expect(reportVersion(reference.db)).toBeGreaterThan(versionBefore);
  });

  it("leaves neither verdicts nor dropped triggers behind when the batch fails", () => {
    const { db, runIds } = base();
    const before = derived(db);
    const evaluations = evaluationsOf(db, runIds);
    expect(() =>
      writeVerdictsInBulk(db, [{ runId: runIds[0]!, judgeId: 1 }], () => {
        saveEvaluations(db, evaluations.slice(0, 2));
        throw new Error("interrupted");
      }),
    ).toThrow("interrupted");
    expect(derived(db)).toEqual(before);
    // The triggers still work for the next run stored the ordinary way.
    const [first] = evaluations;
    saveJudgedVerdicts(db, first!.runId, first!.entries);
    expect(derived(db).masks.length).toBeGreaterThan(before.masks.length);
  });
});
