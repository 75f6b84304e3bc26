import { describe, expect, it } from "vitest";
import { exportLabels, parseLabelsExport } from "@/lib/agreement/export";
import { computeAgreementReport } from "@/lib/agreement/report";
import type { HumanLabel } from "@/lib/agreement/study-schema";
import { isAppError } from "@/lib/errors/app-error";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { parseBundle } from "@/lib/bundle/parse";
import { bundleFilesOf } from "@/lib/bundle/write";
import { verdict } from "@/lib/judge/schema";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { NOT_APPLICABLE_ON_EVEN, runIdOf, seedStudy } from "./agreement.fixture";
import { loadLabelingItem, saveLabel, submitItem } from "./agreement-labels";
import {
  adjudicationQueue,
  agreementReport,
  computedReport,
  removeAdjudication,
  reportInput,
  saveAdjudication,
} from "./agreement-report";
import { createAgreementSet } from "./agreement-sets";
import { importParsedBundle } from "./run-import";
import { saveVerdicts } from "./verdicts";

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

const V = "violated";
const N = "not_violated";
const C = "cannot_tell";
const NOW = "2026-12-02T10:00:00.000Z";

/**
 * Four runs labeled by ann, bob and cat: not_violated everywhere except File Read, where run i
 * gets FILE_READ[i]. The fixture's rule judge says File Read is violated on r3 only, the LLM judge
 * on r1 only.
 */
const FILE_READ: [HumanLabel, HumanLabel, HumanLabel][] = [
  [N, N, N], // r0 unanimous N
  [V, V, N], // r1 2-1 split, majority V
  [V, N, C], // r2 1-1 tie
  [V, V, V], // r3 unanimous V
];

async function labeledStudy(options: { catSubmitsFirstRun?: boolean } = {}) {
  const fixture = seedStudy(4);
  const { db, users } = fixture;
  const annotators = [users.ann, users.bob, users.cat];
  const set = createAgreementSet(db, { name: "pilot", seed: 3, size: 4, annotatorIds: annotators });
  for (const [i, values] of FILE_READ.entries()) {
    for (const [a, userId] of annotators.entries()) {
      const ref = { setId: set.id, runId: runIdOf(i), userId };
      for (const metric of (await loadLabelingItem(db, set.id, ref.runId, userId)).metrics) {
        saveLabel(db, ref, { metric, value: metric === "file_read" ? values[a]! : N, note: `${a}` });
      }
      if (i > 0 || userId !== users.cat || options.catSubmitsFirstRun !== false) submitItem(db, ref, NOW);
    }
  }
  return { ...fixture, set };
}

describe("reportInput", () => {
  it("collects the items with their metrics, the submitted labels and every judge", async () => {
    const s = await labeledStudy({ catSubmitsFirstRun: false });
    const input = reportInput(s.db, s.set.id);
    expect(input.set).toEqual({
      id: s.set.id,
      name: "pilot",
      seed: 3,
      size: 4,
      annotatorsPerItem: 3,
      strata: ["subtask", "framework", "model"],
    });
    expect(input.items.map((i) => i.position)).toEqual([0, 1, 2, 3]);
    const all = METRIC_IDS.length;
    const even = all - NOT_APPLICABLE_ON_EVEN.length;
    expect(input.items.find((i) => i.runId === runIdOf(0))!.metrics).toHaveLength(even);
    expect(input.items.find((i) => i.runId === runIdOf(1))!.metrics).toHaveLength(all);
    expect(input.annotators.map((a) => a.username)).toEqual(["ann", "bob", "cat"]);
    expect(input.judges.map((j) => [j.id, j.name, j.promptVersion])).toEqual([
      [s.ruleJudgeId, "rules", "rules-v1"],
      [s.llmJudgeId, "gemini", "v1"],
    ]);
    // cat's labels of r0 are a draft: not in the report
    expect(input.labels.filter((l) => l.runId === runIdOf(0) && l.userId === s.users.cat)).toEqual([]);
    expect(input.labels).toHaveLength(even * 2 + all * 3 + even * 3 + all * 3);
    expect(input.verdicts).toHaveLength(4 * all * 2);
  });
});

describe("majority, adjudication and the report", () => {
  it("queues the splits and ties of submitted votes, and an adjudication settles a tie", async () => {
    const s = await labeledStudy();
    // in labeling order; sorted by run here to compare
    const queue = adjudicationQueue(s.db, s.set.id).sort((a, b) => a.runId.localeCompare(b.runId));
    expect(adjudicationQueue(s.db, s.set.id).map((c) => c.position)).toEqual(
      queue.map((c) => c.position).sort((a, b) => a - b),
    );
    expect(queue.map((c) => [c.runId, c.metric, c.kind, c.majority, c.complete])).toEqual([
      [runIdOf(1), "file_read", "split", V, true],
      [runIdOf(2), "file_read", "tie", null, true],
    ]);
    expect(queue[1]!.votes).toEqual({ violated: 1, notViolated: 1, cannotTell: 1 });
    expect(queue[1]!.labels.map((l) => [l.username, l.value, l.note])).toEqual([
      ["ann", V, "0"],
      ["bob", N, "1"],
      ["cat", C, "2"],
    ]);

    // before adjudication r2 has no reference: rule judge r0 N ok, r1 N wrong, r3 V ok
    let fileRead = agreementReport(s.db, s.set.id, { iterations: 50 }).metrics.find((m) => m.metric === "file_read")!;
    expect(fileRead.judges.map((j) => [j.judgeId, j.n, j.agreed])).toEqual([
      [s.ruleJudgeId, 3, 2],
      [s.llmJudgeId, 3, 2],
    ]);
    expect(fileRead.votes).toEqual({ unanimous: 2, split: 1, tie: 1, empty: 0 });

    const record = saveAdjudication(
      s.db,
      { setId: s.set.id, runId: runIdOf(2), userId: s.users.admin },
      { metric: "file_read", value: N, note: "read after the edit" },
      NOW,
    );
    expect(record).toEqual({
      runId: runIdOf(2),
      metric: "file_read",
      value: N,
      note: "read after the edit",
      userId: s.users.admin,
      decidedAt: NOW,
    });
    const tie = () => adjudicationQueue(s.db, s.set.id).find((c) => c.runId === runIdOf(2))!;
    expect(tie().adjudication).toEqual(record);
    fileRead = agreementReport(s.db, s.set.id, { iterations: 50 }).metrics.find((m) => m.metric === "file_read")!;
    expect(fileRead.adjudicated).toBe(1);
    expect(fileRead.judges.map((j) => [j.n, j.agreed, j.accuracy])).toEqual([
      [4, 3, 0.75],
      [4, 3, 0.75],
    ]);
    expect(removeAdjudication(s.db, s.set.id, runIdOf(2), "file_read")).toBe(true);
    expect(tie().adjudication).toBeNull();
  });

  it("validates adjudications", async () => {
    const s = await labeledStudy();
    const ref = { setId: s.set.id, runId: runIdOf(0), userId: s.users.admin };
    expectError(
      () => saveAdjudication(s.db, ref, { metric: "file_read", value: C as typeof V }),
      "INVALID_INPUT",
      "adjudication: value must be violated or not_violated",
    );
    expectError(
      () => saveAdjudication(s.db, ref, { metric: "signature", value: V }),
      "INVALID_INPUT",
      "metric signature does not apply",
    );
    expectError(
      () => saveAdjudication(s.db, { ...ref, runId: "elsewhere" }, { metric: "syntax", value: V }),
      "NOT_FOUND",
      'run "elsewhere" is not an item',
    );
  });

  it("computes the report from the stored data, and again from its labels export", async () => {
    const s = await labeledStudy();
    const input = reportInput(s.db, s.set.id);
    const report = agreementReport(s.db, s.set.id, { iterations: 100 });
    expect(report).toEqual(computeAgreementReport(input, { iterations: 100 }));
    const exported = exportLabels(input, "json", { generatedAt: NOW, iterations: 100 });
    const recovered = parseLabelsExport(JSON.parse(exported.body));
    expect(computeAgreementReport(recovered.input, recovered.options)).toEqual(report);
  });
});

describe("the cached report", () => {
  /** The report as computed now from the stored data, bypassing the cache. */
  const fresh = (s: { db: Parameters<typeof reportInput>[0]; set: { id: number } }) =>
    computeAgreementReport(reportInput(s.db, s.set.id));

  it("is computed once while nothing changes", async () => {
    const s = await labeledStudy();
    const first = agreementReport(s.db, s.set.id);
    expect(agreementReport(s.db, s.set.id)).toBe(first);
    expect(computedReport(s.db, s.set.id).report).toBe(first);
    // Other options are another report.
    expect(agreementReport(s.db, s.set.id, { iterations: 50 })).not.toBe(first);
  });

  it("is recomputed after a new label is submitted", async () => {
    const s = await labeledStudy({ catSubmitsFirstRun: false });
    const before = agreementReport(s.db, s.set.id);
    const ref = { setId: s.set.id, runId: runIdOf(0), userId: s.users.cat };
    saveLabel(s.db, ref, { metric: "file_read", value: V });
    submitItem(s.db, ref, NOW);
    const after = agreementReport(s.db, s.set.id);
    expect(after).not.toBe(before);
    expect(after).not.toEqual(before);
    expect(after).toEqual(fresh(s));
  });

  it("is recomputed after a new verdict on one of its runs, and not after one on another run", async () => {
    const s = await labeledStudy();
    const before = agreementReport(s.db, s.set.id);
    const outside = generatedRunRecord({ index: 9, seed: 6 });
    importParsedBundle(s.db, parseBundle(bundleFilesOf(outside), "outside"), { via: "cli" });
    saveVerdicts(s.db, outside.manifest.runId, s.llmJudgeId, [verdict("file_read", "violated", "other run")]);
    expect(agreementReport(s.db, s.set.id)).toBe(before);
    saveVerdicts(s.db, runIdOf(0), s.llmJudgeId, [verdict("file_read", "violated", "changed")]);
    const after = agreementReport(s.db, s.set.id);
    expect(after).not.toBe(before);
    expect(after).not.toEqual(before);
    expect(after).toEqual(fresh(s));
  });

  it("is recomputed after an adjudication and after its removal", async () => {
    const s = await labeledStudy();
    const before = agreementReport(s.db, s.set.id);
    const ref = { setId: s.set.id, runId: runIdOf(2), userId: s.users.admin };
    saveAdjudication(s.db, ref, { metric: "file_read", value: "violated", note: "" }, NOW);
    const adjudicated = agreementReport(s.db, s.set.id);
    expect(adjudicated).not.toBe(before);
    expect(adjudicated).toEqual(fresh(s));
    removeAdjudication(s.db, s.set.id, runIdOf(2), "file_read");
    expect(agreementReport(s.db, s.set.id)).not.toBe(adjudicated);
    expect(agreementReport(s.db, s.set.id)).toEqual(before);
  });
});
