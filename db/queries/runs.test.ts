import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import type { Mitigation } from "@/lib/codekit/arms";
import { metricBit } from "@/lib/metrics/catalog";
import { createDb, type Db } from "../client";
import { ensureJudge, saveVerdicts } from "./verdicts";
import { importParsedBundle } from "./run-import";
import { runCountAndNewest, runFilterOptions, searchRuns, type RunsFilter } from "./runs";

/** Imports run `index`; with an arm, of a configuration whose `options.mitigation` is that arm. */
function importRun(db: Db, index: number, mitigation?: Mitigation) {
  const run = generatedRunRecord({ index, seed: 4 });
  if (mitigation) run.manifest.agent.options = { ...run.manifest.agent.options, mitigation };
  importParsedBundle(db, parseBundle(bundleFilesOf(run), `b${index}`), { via: "cli" });
}

function seeded(count: number) {
  const db = createDb(":memory:");
  for (let i = 0; i < count; i++) importRun(db, i);
  return db;
}

const id = (i: number) => `synthetic-4-${String(i).padStart(6, "0")}`;
const base: RunsFilter = { judgeId: null, sort: "started", dir: "desc", limit: 5, offset: 0 };
const rule = { kind: "rule" as const, name: "rules", promptVersion: "rules-v1" };
const llm = { kind: "llm" as const, name: "gemini", provider: "gemini", model: "m", promptVersion: "v1" };
const v = (metric: "file_read" | "context", value: "violated" | "not_violated") => ({
  metric,
  value,
  rationale: "",
  citations: [],
  evidence: [],
});

describe("searchRuns", () => {
  it("returns an empty page on an empty database", () => {
    expect(searchRuns(createDb(":memory:"), base)).toEqual({ rows: [], total: 0, searchCap: null });
  });

  it("lists runs newest first with their instance and agent configuration, paged", () => {
    const db = seeded(7);
    const first = searchRuns(db, base);
    expect(first.total).toBe(7);
    expect(first.rows.map((r) => r.id)).toEqual([6, 5, 4, 3, 2].map(id));
    const run = generatedRunRecord({ index: 6, seed: 4 });
    expect(first.rows[0]).toMatchObject({
      benchmarkId: "synthetic",
      instanceId: run.manifest.instanceId,
      subtaskId: run.instance!.subtask,
      framework: "synthetic",
      model: run.manifest.agent.model,
      scripted: true,
      synthetic: false,
      stepCount: 50,
      totalTokens: run.manifest.usage.inputTokens + run.manifest.usage.outputTokens,
      violatedMask: null,
    });
    expect(searchRuns(db, { ...base, offset: 5 }).rows).toHaveLength(2);
  });

  it("sorts by any column both ways, ties broken by run id", () => {
    const db = seeded(6);
    const asc = searchRuns(db, { ...base, sort: "tokens", dir: "asc", limit: 10 }).rows.map((r) => r.totalTokens);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = searchRuns(db, { ...base, sort: "tokens", dir: "desc", limit: 10 }).rows.map((r) => r.totalTokens);
    expect(desc).toEqual([...asc].reverse());
  });

  it("filters by subtask, model, violated metric of a judge and judge disagreement", () => {
    const db = seeded(8);
    const subtask = generatedRunRecord({ index: 3, seed: 4 }).instance!.subtask;
    const bySubtask = searchRuns(db, { ...base, subtaskId: subtask, limit: 50 });
    expect(bySubtask.rows.every((r) => r.subtaskId === subtask)).toBe(true);
    expect(bySubtask.total).toBe(bySubtask.rows.length);

    const ruleId = ensureJudge(db, rule);
    const llmId = ensureJudge(db, llm);
    saveVerdicts(db, id(1), ruleId, [v("file_read", "violated"), v("context", "not_violated")]);
    saveVerdicts(db, id(2), ruleId, [v("file_read", "not_violated"), v("context", "violated")]);
    saveVerdicts(db, id(2), llmId, [v("file_read", "violated")]);
    const readViolations = searchRuns(db, { ...base, judgeId: ruleId, metric: "file_read" });
    expect(readViolations).toMatchObject({ total: 1, rows: [{ id: id(1), violatedMask: metricBit("file_read") }] });
    const disagreements = searchRuns(db, { ...base, disagreement: true });
    expect(disagreements).toMatchObject({ total: 1, rows: [{ id: id(2), disagreementMask: metricBit("file_read") }] });
    const byViolations = searchRuns(db, { ...base, judgeId: ruleId, sort: "violations", dir: "desc", limit: 2 });
    expect(byViolations.rows.map((r) => r.id).sort()).toEqual([id(1), id(2)]);
  });

  it("filters by the configuration's mitigation arm, alone and with a judge's violated metric", () => {
    const db = seeded(5);
    importRun(db, 10, "codekit");
    importRun(db, 11, "codekit");
    const codekit = searchRuns(db, { ...base, mitigation: "codekit", limit: 50 });
    expect(codekit).toMatchObject({ total: 2, rows: [{ id: id(11) }, { id: id(10) }] });
    expect(codekit.rows.every((r) => r.mitigation === "codekit")).toBe(true);
    expect(searchRuns(db, { ...base, mitigation: "none", limit: 50 }).total).toBe(5);
    expect(searchRuns(db, { ...base, mitigation: "guard" }).total).toBe(0);
    const ruleId = ensureJudge(db, rule);
    for (const run of [id(1), id(10)]) saveVerdicts(db, run, ruleId, [v("file_read", "violated")]);
    const readByArm = searchRuns(db, { ...base, judgeId: ruleId, metric: "file_read", mitigation: "codekit" });
    expect(readByArm).toMatchObject({ total: 1, rows: [{ id: id(10), mitigation: "codekit" }] });
  });

  it("finds runs by words of their trajectory; punctuation is searched as text, never as FTS syntax", () => {
    const db = seeded(3);
    expect(searchRuns(db, { ...base, q: "mod_0_helper_0" }).total).toBe(3);
    expect(searchRuns(db, { ...base, q: "no-such-word-anywhere" }).total).toBe(0);
    expect(() => searchRuns(db, { ...base, q: 'AND OR "( NEAR' })).not.toThrow();
    expect(searchRuns(db, { ...base, q: "-- ()" }).total).toBe(0);
  });

  it("searches the newest runs the words match up to the cap, and says so when more match", () => {
    const db = seeded(6);
    const ruleId = ensureJudge(db, rule);
    for (const i of [0, 2, 3, 5]) saveVerdicts(db, id(i), ruleId, [v("file_read", "violated")]);
    const all = { ...base, q: "mod_0_helper_0", limit: 10 };
    // Under the cap: every hit, exact.
    expect(searchRuns(db, { ...all, searchCap: 6 })).toMatchObject({ total: 6, searchCap: null });
    // Over it: the 4 newest hits (imported last) are sorted, filtered and counted.
    const capped = searchRuns(db, { ...all, searchCap: 4 });
    expect(capped).toMatchObject({ total: 4, searchCap: 4 });
    expect(capped.rows.map((r) => r.id)).toEqual([5, 4, 3, 2].map(id));
    const byTokens = searchRuns(db, { ...all, searchCap: 4, sort: "tokens", dir: "asc" }).rows.map(
      (r) => r.totalTokens,
    );
    expect(byTokens).toEqual([...byTokens].sort((a, b) => a - b));
    const violated = searchRuns(db, { ...all, searchCap: 4, judgeId: ruleId, metric: "file_read" });
    expect(violated).toMatchObject({ total: 3, searchCap: 4 });
    expect(violated.rows.map((r) => r.id)).toEqual([5, 3, 2].map(id));
    // The count comes with the page; past the last page it is counted on its own.
    expect(searchRuns(db, { ...all, searchCap: 4, offset: 10 })).toEqual({ rows: [], total: 4, searchCap: 4 });
    const pastViolated = { ...all, searchCap: 4, judgeId: ruleId, metric: "file_read" as const, offset: 3 };
    expect(searchRuns(db, pastViolated)).toEqual({ rows: [], total: 3, searchCap: 4 });
  });

  it("offers the frameworks and models that ran", () => {
    expect(runFilterOptions(seeded(4)).frameworks).toEqual(["synthetic"]);
  });
});

describe("runCountAndNewest", () => {
  it("counts the runs and names the last imported", () => {
    expect(runCountAndNewest(createDb(":memory:"))).toEqual({ runs: 0, newestRunId: null });
    expect(runCountAndNewest(seeded(3))).toEqual({ runs: 3, newestRunId: id(2) });
  });
});
