import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { scaleRun } from "@/lib/dashboard/scale-runs";
import { createDb, type Db } from "../client";
import { insertRunsInBulk } from "./bulk-facts";
import { importParsedBundle } from "./run-import";
import { insertScaleRuns, scaleInstances, writeScaleRuns } from "./synthetic-runs";
import { insertScaleRunsThroughTriggers } from "./synthetic-runs.fixture";

/** 12 imported runs give benchmark "synthetic" its instances (and rows of their own before the batch). */
function base(): Db {
  const db = createDb(":memory:");
  for (let i = 0; i < 12; i++) {
    importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 4 })), `b${i}`), {
      via: "cli",
    });
  }
  return db;
}

/** Every derived row, ids included, the counts, and what a few searches find. */
function derived(db: Db) {
  const all = (q: string) => db.$client.prepare(q).all();
  return {
    facts: all("SELECT * FROM run_facts ORDER BY id"),
    masks: all("SELECT * FROM run_judge_masks ORDER BY run_id, judge_id"),
    maskCounts: all("SELECT * FROM mask_counts ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12"),
    metricCounts: all("SELECT * FROM metric_counts ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"),
    factCounts: all("SELECT * FROM run_fact_counts ORDER BY 1, 2, 3, 4, 5, 6, 7"),
    search: ["pytest", "pip install", "scratch_test", "docstring limit", "Task"].map((q) =>
      all(`SELECT rowid FROM run_search WHERE run_search MATCH '"${q.split(" ").join('" "')}"' ORDER BY rowid`),
    ),
    triggers: all("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"),
  };
}

describe("insertRunsInBulk", () => {
  it("fills run_facts, run_judge_masks and run_search exactly as the insert triggers do", () => {
    const bulk = base();
    const reference = base();
    const runs = Array.from({ length: 150 }, (_, i) => scaleRun(i, 8, scaleInstances(bulk, "synthetic")));
    expect(insertScaleRuns(bulk, runs.slice(0, 70))).toBe(70);
    expect(insertScaleRuns(bulk, runs)).toBe(80);
    expect(insertScaleRunsThroughTriggers(reference, runs)).toBe(150);
    const got = derived(bulk);
    expect(got.facts).toHaveLength(162);
    expect(got.masks).toHaveLength(300);
    expect(got.search.every((hits) => hits.length > 0)).toBe(true);
    expect(got).toEqual(derived(reference));
  });

  it("leaves neither rows nor dropped triggers behind when the batch fails", () => {
    const db = base();
    const before = derived(db);
    const runs = Array.from({ length: 5 }, (_, i) => scaleRun(i, 8, scaleInstances(db, "synthetic")));
    expect(() =>
      insertRunsInBulk(db, () => {
        writeScaleRuns(db, runs);
        throw new Error("interrupted");
      }),
    ).toThrow("interrupted");
    expect(derived(db)).toEqual(before);
    expect(db.$client.prepare("SELECT count(*) AS n FROM runs").get()).toEqual({ n: 12 });
    // The triggers still work for the next run written the ordinary way.
    expect(insertScaleRunsThroughTriggers(db, runs)).toBe(5);
    expect(derived(db).facts).toHaveLength(17);
  });
});
