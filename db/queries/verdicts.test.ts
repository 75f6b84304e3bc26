import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { withMember } from "@/lib/bundle/test-support";
import { bundleFilesOf } from "@/lib/bundle/write";
import { verdict } from "@/lib/judge/schema";
import { createDb, type Db } from "../client";
import * as t from "../schema";
import { saveJudgedVerdicts } from "./evaluation";
import { importParsedBundle } from "./run-import";
import { ensureJudge, saveVerdicts } from "./verdicts";

const RULES = { kind: "rule" as const, name: "rules", promptVersion: "v1" };
const GEMINI = { kind: "llm" as const, name: "gemini", provider: "gemini", model: "m", promptVersion: "p1" };

function imported(db: Db, index: number, bundleVerdicts?: unknown[]) {
  let files = bundleFilesOf(generatedRunRecord({ index, seed: 4 }));
  if (bundleVerdicts) files = withMember(files, "verdicts.json", JSON.stringify(bundleVerdicts));
  return importParsedBundle(db, parseBundle(files, `b${index}`), { via: "cli", replace: true }).runId;
}

const rowsOf = (db: Db, runId: string) =>
  db.select().from(t.verdicts).where(eq(t.verdicts.runId, runId)).orderBy(t.verdicts.metric, t.verdicts.judgeId).all();

describe("the verdict writer", () => {
  it("stores a bundle's verdicts on import under their judges, evidence sentences as given", () => {
    const db = createDb(":memory:");
    const runId = imported(db, 0, [
      { metric: "file_read", judge: RULES, value: "violated", evidence: ["read secrets.txt"] },
      { metric: "file_read", judge: GEMINI, value: "not_violated", rationale: "fine" },
    ]);
    const rows = rowsOf(db, runId);
    expect(rows.map((r) => [r.judgeId, r.value, r.evidence])).toEqual([
      [ensureJudge(db, RULES), "violated", ["read secrets.txt"]],
      [ensureJudge(db, GEMINI), "not_violated", []],
    ]);
    expect(rows.every((r) => r.rawResponse === null && r.costUsd === null)).toBe(true);
    // A replaced run keeps only the new bundle's verdicts.
    imported(db, 0, [{ metric: "syntax", judge: RULES, value: "not_violated" }]);
    expect(rowsOf(db, runId).map((r) => r.metric)).toEqual(["syntax"]);
  });

  it("replaces a judge's verdict on re-evaluation whole: usage it lacks is cleared, other judges' stay", () => {
    const db = createDb(":memory:");
    const runId = imported(db, 1);
    const rules = ensureJudge(db, RULES);
    const gemini = ensureJudge(db, GEMINI);
    saveVerdicts(db, runId, gemini, [
      { ...verdict("context", "violated", "first"), rawResponse: "{}", inputTokens: 10, outputTokens: 2, costUsd: 0.5 },
    ]);
    saveVerdicts(db, runId, rules, [verdict("context", "not_violated", "rules")]);
    const first = rowsOf(db, runId).find((r) => r.judgeId === gemini)!;
    saveJudgedVerdicts(db, runId, [
      { judgeId: gemini, verdict: verdict("context", "not_violated", "second", { evidence: ["line 3"] }) },
    ]);
    const rows = rowsOf(db, runId);
    expect(rows).toHaveLength(2);
    const second = rows.find((r) => r.judgeId === gemini)!;
    expect(second).toMatchObject({
      value: "not_violated",
      rationale: "second",
      evidence: [{ message: "line 3" }],
      rawResponse: null,
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
    });
    expect(second.createdAt >= first.createdAt).toBe(true);
    expect(rows.find((r) => r.judgeId === rules)?.rationale).toBe("rules");
    // The dashboard's derived masks follow the replacement (the verdicts' UPDATE trigger).
    const masks = db.select().from(t.runJudgeMasks).where(eq(t.runJudgeMasks.runId, runId)).all();
    expect(masks.find((m) => m.judgeId === gemini)?.violatedCount).toBe(0);
  });
});
