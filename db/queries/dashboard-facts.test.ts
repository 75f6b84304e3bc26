import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import type { Mitigation } from "@/lib/codekit/arms";
import { METRIC_IDS, metricBit, type MetricId } from "@/lib/metrics/catalog";
import { createDb, type Db } from "../client";
import * as t from "../schema";
import { ensureJudge, saveVerdicts } from "./verdicts";
import { importParsedBundle } from "./run-import";

function importSynthetic(db: Db, index: number, replace = false, mitigation?: Mitigation) {
  const run = generatedRunRecord({ index, seed: 9 });
  if (mitigation) run.manifest.agent.options = { ...run.manifest.agent.options, mitigation };
  return importParsedBundle(db, parseBundle(bundleFilesOf(run), `b${index}`), { via: "cli", replace });
}

function verdict(metric: MetricId, value: "violated" | "not_violated" | "not_applicable" | "invalid") {
  return { metric, value, rationale: "", citations: [], evidence: [] };
}

const judgeA = { kind: "rule" as const, name: "rule", provider: "", model: "", promptVersion: "1" };
const judgeB = { kind: "llm" as const, name: "gemini", provider: "gemini", model: "m", promptVersion: "1" };

describe("derived dashboard tables (the triggers of migrations 0002, 0006 and 0011)", () => {
  it("gives every imported run one run_facts row with its instance and configuration", () => {
    const db = createDb(":memory:");
    const { runId } = importSynthetic(db, 0);
    const facts = db.select().from(t.runFacts).where(eq(t.runFacts.runId, runId)).get();
    const run = generatedRunRecord({ index: 0, seed: 9 });
    expect(facts).toMatchObject({
      benchmarkId: "synthetic",
      instanceId: run.manifest.instanceId,
      subtaskId: run.instance!.subtask,
      framework: "synthetic",
      model: run.manifest.agent.model,
      scripted: true,
      synthetic: false,
      stepCount: 50,
      mitigation: "none",
      disagreementMask: 0,
    });
  });

  it("carries the configuration's mitigation arm into run_facts and every judge's masks", () => {
    const db = createDb(":memory:");
    const { runId } = importSynthetic(db, 6, false, "codekit");
    expect(db.select().from(t.agentConfigs).get()).toMatchObject({ mitigation: "codekit" });
    expect(db.select().from(t.runFacts).where(eq(t.runFacts.runId, runId)).get()).toMatchObject({
      mitigation: "codekit",
    });
    const [a, b] = [ensureJudge(db, judgeA), ensureJudge(db, judgeB)];
    saveVerdicts(db, runId, a, [verdict("file_read", "violated")]);
    saveVerdicts(db, runId, b, [verdict("file_read", "not_violated")]);
    // A replaced verdict rewrites the row through the update trigger: the arm stays.
    saveVerdicts(db, runId, a, [verdict("file_read", "not_violated")]);
    const masks = db.select().from(t.runJudgeMasks).where(eq(t.runJudgeMasks.runId, runId)).all();
    expect(masks.map((m) => [m.judgeId, m.mitigation])).toEqual([
      [a, "codekit"],
      [b, "codekit"],
    ]);
  });

  it("sets each metric's catalog bit in the masks, for every metric of the catalog", () => {
    const db = createDb(":memory:");
    const { runId } = importSynthetic(db, 1);
    const judgeId = ensureJudge(db, judgeA);
    for (const metric of METRIC_IDS) {
      saveVerdicts(db, runId, judgeId, [verdict(metric, "violated")]);
      const row = db.select().from(t.runJudgeMasks).where(eq(t.runJudgeMasks.runId, runId)).get()!;
      expect(row.violatedMask & metricBit(metric)).not.toBe(0);
    }
    const row = db.select().from(t.runJudgeMasks).where(eq(t.runJudgeMasks.runId, runId)).get()!;
    expect(row.violatedMask).toBe(2 ** METRIC_IDS.length - 1);
    expect(row.violatedCount).toBe(METRIC_IDS.length);
  });

  it("counts only violated and not violated as decided, and follows replaced verdicts", () => {
    const db = createDb(":memory:");
    const { runId } = importSynthetic(db, 2);
    const judgeId = ensureJudge(db, judgeA);
    saveVerdicts(db, runId, judgeId, [
      verdict("syntax", "violated"),
      verdict("signature", "not_violated"),
      verdict("context", "not_applicable"),
      verdict("file_read", "invalid"),
    ]);
    const masks = () => db.select().from(t.runJudgeMasks).where(eq(t.runJudgeMasks.runId, runId)).get()!;
    expect(masks()).toMatchObject({
      violatedMask: metricBit("syntax"),
      decidedMask: metricBit("syntax") | metricBit("signature"),
      violatedCount: 1,
    });
    saveVerdicts(db, runId, judgeId, [verdict("syntax", "not_violated")]);
    expect(masks()).toMatchObject({ violatedMask: 0, violatedCount: 0 });
  });

  it("marks the metrics on which two judges disagree", () => {
    const db = createDb(":memory:");
    const { runId } = importSynthetic(db, 3);
    const a = ensureJudge(db, judgeA);
    const b = ensureJudge(db, judgeB);
    saveVerdicts(db, runId, a, [verdict("file_read", "violated"), verdict("context", "violated")]);
    saveVerdicts(db, runId, b, [verdict("file_read", "not_violated"), verdict("context", "violated")]);
    const facts = () => db.select().from(t.runFacts).where(eq(t.runFacts.runId, runId)).get()!;
    expect(facts().disagreementMask).toBe(metricBit("file_read"));
    saveVerdicts(db, runId, b, [verdict("file_read", "violated")]);
    expect(facts().disagreementMask).toBe(0);
  });

  it("indexes prompt and trajectory text for search, and drops it with the run on replace", () => {
    const db = createDb(":memory:");
    const { runId } = importSynthetic(db, 4);
    const hits = (q: string) =>
      db.all<{ runId: string }>(sql`
        SELECT f.run_id AS runId FROM run_facts f
        WHERE f.id IN (SELECT rowid FROM run_search WHERE run_search MATCH ${q})`);
    const firstCommand = generatedRunRecord({ index: 4, seed: 9 }).steps.find((s) => s.kind === "shell");
    expect(firstCommand).toBeDefined();
    expect(hits(`"mod_0_helper_0"`).map((h) => h.runId)).toEqual([runId]);
    expect(db.all(sql`SELECT rowid FROM run_search`)).toHaveLength(1);
    db.delete(t.runs).where(eq(t.runs.id, runId)).run();
    expect(db.all(sql`SELECT rowid FROM run_search`)).toHaveLength(0);
    expect(db.select().from(t.runFacts).all()).toHaveLength(0);
  });

  it("keeps a case study when its run is replaced by a new bundle", () => {
    const db = createDb(":memory:");
    const { runId } = importSynthetic(db, 5);
    db.insert(t.caseStudies)
      .values({ runId, title: "t", note: "n", tags: ["x"], updatedAt: "2026-12-03T00:00:00.000Z" })
      .run();
    db.update(t.runs).set({ bundleDigest: "other" }).where(eq(t.runs.id, runId)).run();
    expect(importSynthetic(db, 5, true).outcome).toBe("replaced");
    expect(db.select().from(t.caseStudies).all()).toEqual([expect.objectContaining({ runId, note: "n" })]);
    expect(db.select().from(t.runFacts).all()).toHaveLength(1);
  });
});
