import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { HumanLabel } from "@/lib/agreement/study-schema";
import { isAppError } from "@/lib/errors/app-error";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import * as t from "../schema";
import { NOT_APPLICABLE_ON_EVEN, runIdOf, seedStudy, type StudyFixture } from "./agreement.fixture";
import { loadLabelingItem, loadRevealed, saveLabel, submitItem } from "./agreement-labels";
import { annotatorQueue, listAnnotatorSets } from "./agreement-queue";
import { createAgreementSet, getAgreementSet } from "./agreement-sets";

async function expectError(run: () => unknown, code: string, fragment: string): Promise<void> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(isAppError(caught), `expected an AppError, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
  expect((caught as Error).message).toContain(fragment);
}

const NOW = "2026-12-02T10:00:00.000Z";

/** Four runs, all in the set, labeled by ann, bob and cat. */
function study(options: { revealAfterSubmit?: boolean } = {}) {
  const fixture = seedStudy(4);
  const { db, users } = fixture;
  const set = createAgreementSet(db, {
    name: "pilot",
    seed: 3,
    size: 4,
    annotatorIds: [users.ann, users.bob, users.cat],
    ...options,
  });
  const queue = annotatorQueue(db, set.id, users.ann);
  return { ...fixture, set, order: queue.items.map((i) => i.runId) };
}

/** Labels every metric the item asks about, then submits it. */
async function labelAndSubmit(
  f: StudyFixture,
  setId: number,
  runId: string,
  userId: number,
  value: HumanLabel = "not_violated",
) {
  const ref = { setId, runId, userId };
  for (const metric of (await loadLabelingItem(f.db, setId, runId, userId)).metrics)
    saveLabel(f.db, ref, { metric, value });
  return submitItem(f.db, ref, NOW);
}

describe("loadLabelingItem", () => {
  it("gives the annotator the run without verdicts, the metrics that apply and their own labels only", async () => {
    const s = study();
    const even = runIdOf(0);
    saveLabel(s.db, { setId: s.set.id, runId: even, userId: s.users.bob }, { metric: "syntax", value: "violated" });
    saveLabel(
      s.db,
      { setId: s.set.id, runId: even, userId: s.users.ann },
      { metric: "context", value: "cannot_tell", note: "?" },
    );
    const item = await loadLabelingItem(s.db, s.set.id, even, s.users.ann);
    expect(item.metrics).toEqual(METRIC_IDS.filter((m) => !NOT_APPLICABLE_ON_EVEN.includes(m)));
    expect(item.labels).toEqual([
      { metric: "context", value: "cannot_tell", note: "?", updatedAt: expect.any(String) },
    ]);
    expect(item.run.id).toBe(even);
    expect("verdicts" in item.run).toBe(false);
    expect(item).toMatchObject({ total: 4, submittedAt: null, canReveal: false, set: { name: "pilot" } });
    expect(item.ordinal).toBe(s.order.indexOf(even) + 1);
    // an odd run asks about all eleven metrics
    expect((await loadLabelingItem(s.db, s.set.id, runIdOf(1), s.users.ann)).metrics).toEqual([...METRIC_IDS]);
  });

  it("refuses a user the item is not assigned to", async () => {
    const s = study();
    await expectError(
      () => loadLabelingItem(s.db, s.set.id, runIdOf(0), s.users.viewer),
      "FORBIDDEN",
      "not assigned to you",
    );
    await expectError(
      () => loadLabelingItem(s.db, s.set.id, runIdOf(0), s.users.admin),
      "FORBIDDEN",
      "not assigned to you",
    );
    // one annotator per item: ann may not open bob's item
    const solo = createAgreementSet(s.db, {
      name: "solo",
      seed: 1,
      size: 4,
      annotatorIds: [s.users.ann, s.users.bob],
      annotatorsPerItem: 1,
    });
    const bobs = annotatorQueue(s.db, solo.id, s.users.bob).items[0]!.runId;
    await expectError(() => loadLabelingItem(s.db, solo.id, bobs, s.users.ann), "FORBIDDEN", "not assigned to you");
    await expectError(
      () =>
        saveLabel(s.db, { setId: solo.id, runId: bobs, userId: s.users.ann }, { metric: "syntax", value: "violated" }),
      "FORBIDDEN",
      "not assigned to you",
    );
    await expectError(() => loadRevealed(s.db, solo.id, bobs, s.users.ann), "FORBIDDEN", "not assigned to you");
  });
});

describe("saveLabel", () => {
  it("upserts one metric, keeping the rationale unless a new one is given", async () => {
    const s = study();
    const ref = { setId: s.set.id, runId: runIdOf(1), userId: s.users.ann };
    saveLabel(s.db, ref, { metric: "file_read", value: "violated", note: "never read utils.py" }, NOW);
    const changed = saveLabel(s.db, ref, { metric: "file_read", value: "not_violated" }, "2026-12-02T10:01:00.000Z");
    expect(changed).toEqual({
      metric: "file_read",
      value: "not_violated",
      note: "never read utils.py",
      updatedAt: "2026-12-02T10:01:00.000Z",
    });
    expect(saveLabel(s.db, ref, { metric: "file_read", value: "not_violated", note: "" }).note).toBe("");
  });

  it("validates the value and refuses a metric the item does not ask about", async () => {
    const s = study();
    const ref = { setId: s.set.id, runId: runIdOf(0), userId: s.users.ann };
    await expectError(
      () => saveLabel(s.db, ref, { metric: "syntax", value: "maybe" as "violated" }),
      "INVALID_INPUT",
      "label: value must be violated, not_violated or cannot_tell",
    );
    await expectError(
      () => saveLabel(s.db, ref, { metric: "speed" as "syntax", value: "violated" }),
      "INVALID_INPUT",
      "label: metric",
    );
    await expectError(
      () => saveLabel(s.db, ref, { metric: "signature", value: "violated" }),
      "INVALID_INPUT",
      "metric signature does not apply",
    );
  });
});

describe("submitItem", () => {
  it("refuses until every applicable metric is labeled, then freezes the labels", async () => {
    const s = study();
    const ref = { setId: s.set.id, runId: runIdOf(0), userId: s.users.ann };
    saveLabel(s.db, ref, { metric: "syntax", value: "violated" });
    await expectError(() => submitItem(s.db, ref), "INVALID_INPUT", "missing: context, file_create");
    const result = await labelAndSubmit(s, s.set.id, runIdOf(0), s.users.ann);
    expect(result).toMatchObject({ submittedAt: NOW, alreadySubmitted: false });
    expect(result.nextRunId).toBe(s.order.find((runId) => runId !== runIdOf(0)));
    expect(submitItem(s.db, ref, "2027-01-01T00:00:00.000Z")).toMatchObject({
      submittedAt: NOW,
      alreadySubmitted: true,
    });
    await expectError(
      () => saveLabel(s.db, ref, { metric: "syntax", value: "not_violated" }),
      "CONFLICT",
      "already submitted",
    );
  });

  it("tracks progress, resumes at the first open item and marks the annotator finished", async () => {
    const s = study();
    const [first, second, third, fourth] = s.order as [string, string, string, string];
    saveLabel(s.db, { setId: s.set.id, runId: second, userId: s.users.ann }, { metric: "syntax", value: "violated" });
    await labelAndSubmit(s, s.set.id, first, s.users.ann);
    const queue = annotatorQueue(s.db, s.set.id, s.users.ann);
    expect(queue.items.map((i) => [i.ordinal, i.status])).toEqual([
      [1, "submitted"],
      [2, "in_progress"],
      [3, "todo"],
      [4, "todo"],
    ]);
    expect(queue.items[1]).toMatchObject({ labeled: 1 });
    expect(queue).toMatchObject({ assigned: 4, submitted: 1, nextRunId: second });
    expect(listAnnotatorSets(s.db, s.users.ann)).toEqual([
      { id: s.set.id, name: "pilot", revealAfterSubmit: true, assigned: 4, submitted: 1, nextRunId: second },
    ]);
    for (const runId of [second, third, fourth]) await labelAndSubmit(s, s.set.id, runId, s.users.ann);
    const progress = getAgreementSet(s.db, s.set.id).annotators.find((a) => a.username === "ann");
    expect(progress).toMatchObject({ assigned: 4, submitted: 4, finishedAt: NOW });
    expect(annotatorQueue(s.db, s.set.id, s.users.ann).nextRunId).toBeNull();
    await expectError(() => annotatorQueue(s.db, s.set.id, s.users.viewer), "FORBIDDEN", "not an annotator");
    expect(listAnnotatorSets(s.db, s.users.viewer)).toEqual([]);
  });
});

describe("loadRevealed", () => {
  it("shows nothing before the annotator submits", async () => {
    const s = study();
    await expectError(() => loadRevealed(s.db, s.set.id, runIdOf(1), s.users.ann), "FORBIDDEN", "submit this item");
  });

  it("after submit shows the judges and the others who submitted, never their drafts", async () => {
    const s = study();
    const runId = runIdOf(1);
    await labelAndSubmit(s, s.set.id, runId, s.users.bob, "violated");
    saveLabel(s.db, { setId: s.set.id, runId, userId: s.users.cat }, { metric: "syntax", value: "cannot_tell" });
    await labelAndSubmit(s, s.set.id, runId, s.users.ann);
    const revealed = loadRevealed(s.db, s.set.id, runId, s.users.ann);
    expect(revealed.others.map((o) => o.username)).toEqual(["bob"]);
    expect(revealed.others[0]!.labels).toHaveLength(METRIC_IDS.length);
    expect(new Set(revealed.verdicts.map((v) => v.name))).toEqual(new Set(["rules", "gemini"]));
    expect(revealed.verdicts).toHaveLength(2 * METRIC_IDS.length);
    const syntax = revealed.majorities.find((m) => m.metric === "syntax");
    expect(syntax).toMatchObject({ votes: { violated: 1, notViolated: 1, cannotTell: 0 }, kind: "tie" });
  });

  it("stays closed in a set that does not reveal", async () => {
    const s = study({ revealAfterSubmit: false });
    await labelAndSubmit(s, s.set.id, runIdOf(1), s.users.ann);
    expect((await loadLabelingItem(s.db, s.set.id, runIdOf(1), s.users.ann)).canReveal).toBe(false);
    await expectError(() => loadRevealed(s.db, s.set.id, runIdOf(1), s.users.ann), "FORBIDDEN", "does not reveal");
    const stored = s.db
      .select()
      .from(t.itemAssignments)
      .where(and(eq(t.itemAssignments.setId, s.set.id), eq(t.itemAssignments.userId, s.users.ann)))
      .all();
    expect(stored.filter((a) => a.submittedAt !== null)).toHaveLength(1);
  });
});
