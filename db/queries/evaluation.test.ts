import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { verdict } from "@/lib/judge/schema";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { createDb } from "../client";
import { loadEvaluationInput, runsToEvaluate } from "./evaluation";
import { ensureJudge, saveVerdicts } from "./verdicts";
import { importParsedBundle } from "./run-import";
import { storeTaskCheck } from "./task-checks";

function seeded(count: number) {
  const db = createDb(":memory:");
  const runs = Array.from({ length: count }, (_, i) => generatedRunRecord({ index: i, seed: 9 }));
  runs.forEach((run, i) => importParsedBundle(db, parseBundle(bundleFilesOf(run), `b${i}`), { via: "cli" }));
  return { db, runs };
}

describe("evaluation queries", () => {
  it("loads what a judge needs: steps, changes with contents, snapshots, setup files, final answer", () => {
    const { db, runs } = seeded(1);
    const run = runs[0]!;
    const input = loadEvaluationInput(db, run.manifest.runId);
    expect(input.steps).toEqual(run.steps.map((s) => expect.objectContaining({ id: s.id, kind: s.kind })));
    expect(input.changes.map((c) => [c.path, c.kind])).toEqual(
      expect.arrayContaining([
        ["scratch_test.py", "created"],
        [run.instance!.groundTruth.originalFile!, "updated"],
      ]),
    );
    const target = input.changes.find((c) => c.path === run.instance!.groundTruth.originalFile)!;
    expect(target.before).toEqual(run.before.get(target.path)!.data);
    expect(target.after).toEqual(run.after.get(target.path)!.data);
    expect(input.setupFiles.get(target.path)).toBe(run.before.get(target.path)!.data.toString("utf8"));
    expect(input.environmentBefore?.git?.branch).toBe("main");
    expect(input.contract).toEqual(run.instance!.contract);
    expect(input.limits).toEqual({ maxSteps: 100, wallTimeSeconds: 600 });
    expect(() => loadEvaluationInput(db, "missing")).toThrow(/not found/);
  });

  it("parses what snapshots share once: one frozen object per member, which the rules see as unchanged", () => {
    const { db, runs } = seeded(2);
    const first = loadEvaluationInput(db, runs[0]!.manifest.runId);
    const second = loadEvaluationInput(db, runs[1]!.manifest.runId);
    expect(first.environmentBefore).toEqual(runs[0]!.environmentBefore);
    expect(first.environmentAfter).toEqual(runs[0]!.environmentAfter);
    expect(second.environmentAfter).toEqual(runs[1]!.environmentAfter);
    // The generated runs share one machine: their snapshots differ only in the time of capture.
    expect(first.environmentBefore!.capturedAt).not.toBe(first.environmentAfter!.capturedAt);
    expect(first.environmentAfter!.packages).toBe(first.environmentBefore!.packages);
    expect(second.environmentAfter!.git).toBe(first.environmentBefore!.git);
    expect(Object.isFrozen(first.environmentBefore!.git)).toBe(true);
    expect(Object.isFrozen(first.environmentBefore)).toBe(true);
    const store = (text: string) =>
      db.$client
        .prepare("UPDATE environment_snapshots SET snapshot = ? WHERE run_id = ? AND phase = 'after'")
        .run(text, runs[1]!.manifest.runId);
    // A snapshot stored as other text has its own members.
    const other = { ...runs[1]!.environmentAfter!, git: { ...runs[1]!.environmentAfter!.git!, branch: "other" } };
    store(JSON.stringify(other));
    const changed = loadEvaluationInput(db, runs[1]!.manifest.runId);
    expect(changed.environmentAfter).toEqual(other);
    expect(changed.environmentAfter!.git).not.toBe(changed.environmentBefore!.git);
    // And one not written as the studio writes them is read all the same.
    const reordered = {
      git: other.git,
      capturedAt: other.capturedAt,
      packages: other.packages,
      outsideFiles: other.outsideFiles,
    };
    store(JSON.stringify(reordered));
    expect(loadEvaluationInput(db, runs[1]!.manifest.runId).environmentAfter).toEqual(reordered);
    // Whatever the text, what is read is JSON.parse's: an escaped quote in the time, a snapshot
    // with nothing after it, and a trailing comma (which JSON.parse refuses).
    const escaped = JSON.stringify({ ...other, capturedAt: 'x\\"y' });
    store(escaped);
    expect(loadEvaluationInput(db, runs[1]!.manifest.runId).environmentAfter).toEqual(JSON.parse(escaped));
    store('{"capturedAt":"2026-01-01T00:00:00.000Z"}');
    expect(loadEvaluationInput(db, runs[1]!.manifest.runId).environmentAfter).toEqual({
      capturedAt: "2026-01-01T00:00:00.000Z",
    });
    store('{"capturedAt":"2026-01-01T00:00:00.000Z",}');
    expect(() => loadEvaluationInput(db, runs[1]!.manifest.runId)).toThrow(SyntaxError);
  });

  it("stores a judge's verdicts per run, replacing them on re-evaluation, and knows what is pending", () => {
    const { db, runs } = seeded(3);
    const judgeId = ensureJudge(db, { kind: "rule", name: "rules", promptVersion: "v1" });
    expect(ensureJudge(db, { kind: "rule", name: "rules", promptVersion: "v1" })).toBe(judgeId);
    expect(runsToEvaluate(db, judgeId)).toHaveLength(3);
    const id = runs[0]!.manifest.runId;
    const all = METRIC_IDS.map((m) => verdict(m, "not_violated", "ok"));
    saveVerdicts(db, id, judgeId, all);
    expect(runsToEvaluate(db, judgeId)).toHaveLength(2);
    expect(runsToEvaluate(db, judgeId, { force: true })).toHaveLength(3);
    expect(runsToEvaluate(db, judgeId, { pattern: id })).toHaveLength(0);
    expect(runsToEvaluate(db, judgeId, { pattern: "synthetic-9-*" })).toHaveLength(2);
    saveVerdicts(db, id, judgeId, [verdict("syntax", "violated", "broken", { evidence: ["line 3"] })]);
    const rows = db.$client.prepare("SELECT metric, value FROM verdicts WHERE run_id = ? ORDER BY metric").all(id) as {
      metric: string;
      value: string;
    }[];
    expect(rows).toHaveLength(METRIC_IDS.length);
    expect(rows.find((r) => r.metric === "syntax")?.value).toBe("violated");
  });

  it("loads the run's stored task check as evidence, null until one is stored", () => {
    const { db, runs } = seeded(1);
    const id = runs[0]!.manifest.runId;
    expect(loadEvaluationInput(db, id).taskCheck).toBeNull();
    const result = {
      outcome: "not_completed" as const,
      reason: "2 of 3 tests failed",
      output: "FAILED t::a",
      durationMs: 9,
    };
    storeTaskCheck(db, id, result, true);
    expect(loadEvaluationInput(db, id).taskCheck).toEqual({
      outcome: "not_completed",
      reason: "2 of 3 tests failed",
      output: "FAILED t::a",
      claimed: true,
    });
  });

  it("gives a new prompt version its own judge row: the old version's verdicts stay, the run is pending again", () => {
    const { db, runs } = seeded(1);
    const id = runs[0]!.manifest.runId;
    const judge = { kind: "llm" as const, name: "llm-gemini", provider: "gemini", model: "m" };
    const v2 = ensureJudge(db, { ...judge, promptVersion: "instruction_following.v2" });
    saveVerdicts(db, id, v2, [verdict("instruction_following", "violated", "extra file")]);
    const v3 = ensureJudge(db, { ...judge, promptVersion: "instruction_following.v3" });
    expect(v3).not.toBe(v2);
    expect(runsToEvaluate(db, new Map([["instruction_following", v3]]))).toEqual([id]);
    saveVerdicts(db, id, v3, [verdict("instruction_following", "not_violated", "did what was asked")]);
    const rows = db.$client
      .prepare(
        `SELECT j.prompt_version AS version, v.value FROM verdicts v JOIN judges j ON j.id = v.judge_id
         WHERE v.run_id = ? ORDER BY j.prompt_version`,
      )
      .all(id);
    expect(rows).toEqual([
      { version: "instruction_following.v2", value: "violated" },
      { version: "instruction_following.v3", value: "not_violated" },
    ]);
  });
});
