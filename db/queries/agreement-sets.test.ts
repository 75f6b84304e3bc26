import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { verdict } from "@/lib/judge/schema";
import { isAppError } from "@/lib/errors/app-error";
import * as t from "../schema";
import { seedStudy } from "./agreement.fixture";
import { createAgreementSet, getAgreementSet, listAgreementSets } from "./agreement-sets";
import { ensureJudge, saveVerdicts } from "./verdicts";

function expectError(run: () => unknown, code: string, fragment: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(isAppError(caught), `expected an AppError, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
  expect((caught as Error).message).toContain(fragment);
}

describe("createAgreementSet", () => {
  it("draws a stratified sample, stores each item's stratum and gives every item k annotators", () => {
    const { db, users, ruleJudgeId } = seedStudy(24);
    const annotatorIds = [users.ann, users.bob, users.cat];
    const set = createAgreementSet(db, { name: "pilot", seed: 5, size: 10, annotatorIds }, users.admin);
    expect(set).toMatchObject({
      name: "pilot",
      seed: 5,
      size: 10,
      annotatorsPerItem: 3,
      revealAfterSubmit: true,
      createdBy: users.admin,
      completedItems: 0,
    });
    expect(set.design).toMatchObject({
      version: 1,
      strata: ["subtask", "framework", "model"],
      requestedSize: 10,
      ruleJudgeId,
      population: 24,
      filters: { benchmarkId: null, judgeIds: [], includeSynthetic: false },
    });
    expect(set.design.allocation.reduce((sum, a) => sum + a.sampled, 0)).toBe(10);
    expect(set.annotators.map((a) => [a.username, a.assigned, a.submitted])).toEqual([
      ["ann", 10, 0],
      ["bob", 10, 0],
      ["cat", 10, 0],
    ]);

    const items = db.select().from(t.agreementItems).where(eq(t.agreementItems.setId, set.id)).all();
    expect(items.map((i) => i.position).sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    for (const item of items) {
      const facts = db.select().from(t.runFacts).where(eq(t.runFacts.runId, item.runId)).get()!;
      expect(item.stratum).toBe(`${facts.subtaskId}|${facts.framework}|${facts.model}`);
    }
    const assignments = db.select().from(t.itemAssignments).where(eq(t.itemAssignments.setId, set.id)).all();
    expect(assignments).toHaveLength(30);
  });

  it("draws the same sample for the same seed and balances loads when k < annotators", () => {
    const { db, users } = seedStudy(20);
    const annotatorIds = [users.ann, users.bob, users.cat];
    const a = createAgreementSet(db, { name: "a", seed: 9, size: 8, annotatorIds, annotatorsPerItem: 2 });
    const b = createAgreementSet(db, { name: "b", seed: 9, size: 8, annotatorIds, annotatorsPerItem: 2 });
    const itemsOf = (setId: number) =>
      db
        .select({ runId: t.agreementItems.runId, position: t.agreementItems.position })
        .from(t.agreementItems)
        .where(eq(t.agreementItems.setId, setId))
        .orderBy(t.agreementItems.position)
        .all()
        .map((i) => i.runId);
    expect(itemsOf(b.id)).toEqual(itemsOf(a.id));
    // 8 items x 2 = 16 slots over 3 annotators: 6, 5, 5
    expect(a.annotators.map((p) => p.assigned).sort()).toEqual([5, 5, 6]);
    expect(listAgreementSets(db).map((s) => s.name)).toEqual(["b", "a"]);
  });

  it("samples only runs every compared judge has judged, of the benchmark asked for", () => {
    const { db, users, runIds } = seedStudy(12);
    const partial = ensureJudge(db, {
      kind: "llm",
      name: "gemini",
      provider: "gemini",
      model: "m",
      promptVersion: "v2",
    });
    for (const runId of runIds.slice(0, 3)) saveVerdicts(db, runId, partial, [verdict("syntax", "violated", "")]);
    const set = createAgreementSet(db, {
      name: "v2",
      seed: 1,
      size: 10,
      annotatorIds: [users.ann],
      annotatorsPerItem: 1,
      judgeIds: [partial],
      benchmarkId: "synthetic",
    });
    expect(set.size).toBe(3);
    const drawn = db.select().from(t.agreementItems).where(eq(t.agreementItems.setId, set.id)).all();
    expect(drawn.map((i) => i.runId).sort()).toEqual(runIds.slice(0, 3));
    expectError(
      () =>
        createAgreementSet(db, {
          name: "none",
          seed: 1,
          annotatorIds: [users.ann],
          annotatorsPerItem: 1,
          benchmarkId: "nope",
        }),
      "INVALID_INPUT",
      "no runs match the filters",
    );
  });

  it("refuses a taken name, unknown or non-labeling annotators, too few annotators and unknown judges", () => {
    const { db, users, llmJudgeId } = seedStudy(6);
    const base = { seed: 1, size: 4, annotatorIds: [users.ann, users.bob, users.cat] };
    createAgreementSet(db, { ...base, name: "pilot" });
    expectError(() => createAgreementSet(db, { ...base, name: "pilot" }), "CONFLICT", 'named "pilot" already exists');
    expectError(
      () => createAgreementSet(db, { ...base, name: "x", annotatorIds: [users.ann, users.viewer, users.bob] }),
      "INVALID_INPUT",
      '"viewer" is a viewer and cannot label',
    );
    expectError(
      () => createAgreementSet(db, { ...base, name: "x", annotatorIds: [users.ann, 999, users.bob] }),
      "INVALID_INPUT",
      "annotator 999 does not exist",
    );
    expectError(
      () => createAgreementSet(db, { ...base, name: "x", annotatorIds: [users.ann, users.bob] }),
      "INVALID_INPUT",
      "each item needs 3 annotators but only 2 are enrolled",
    );
    expectError(() => createAgreementSet(db, { ...base, name: "x", judgeIds: [777] }), "INVALID_INPUT", "judge 777");
    expectError(
      () => createAgreementSet(db, { ...base, name: "x", ruleJudgeId: llmJudgeId }),
      "INVALID_INPUT",
      "is not a rule judge",
    );
    expectError(() => createAgreementSet(db, { ...base, name: " " }), "INVALID_INPUT", "name must not be empty");
    // nothing of the refused sets was written
    expect(listAgreementSets(db).map((s) => s.name)).toEqual(["pilot"]);
    expectError(() => getAgreementSet(db, 404), "NOT_FOUND", "agreement set 404 does not exist");
  });
});
