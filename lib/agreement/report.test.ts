import { describe, expect, it } from "vitest";
import { bootstrapInterval, cohenKappa, confusionMatrix, gwetAC1, percentAgreement } from "./index";
import { humanMajorities } from "./item-majority";
import { computeAgreementReport } from "./report";
import { fixtureInput } from "./report.fixture";
import type { AgreementReport, MetricReport } from "./report-types";
import { expectInvalid } from "./test-support";
import { seededRandom } from "@/lib/util/random";
import type { ReportInput } from "./report-input";

/** 60 items whose three annotators and two judges mostly agree on two metrics. */
function largerInput(): ReportInput {
  const random = seededRandom(5);
  const noisy = (truth: "violated" | "not_violated", p: number) =>
    random() < p ? (truth === "violated" ? "not_violated" : "violated") : truth;
  const base = fixtureInput();
  const items = Array.from({ length: 60 }, (_, i) => ({
    runId: `x${i}`,
    position: i,
    stratum: "",
    metrics: ["syntax" as const, "file_read" as const],
  }));
  const truths = items.map(() => ({ syntax: random() < 0.3, file_read: random() < 0.4 }));
  const truth = (i: number, metric: "syntax" | "file_read") => (truths[i]![metric] ? "violated" : "not_violated");
  return {
    ...base,
    items,
    adjudications: [],
    labels: items.flatMap((item, i) =>
      (["syntax", "file_read"] as const).flatMap((metric) =>
        [1, 2, 3].map((userId) => ({ runId: item.runId, userId, metric, value: noisy(truth(i, metric), 0.1) })),
      ),
    ),
    verdicts: items.flatMap((item, i) =>
      (["syntax", "file_read"] as const).flatMap((metric) =>
        [10, 20].map((judgeId) => ({ runId: item.runId, judgeId, metric, value: noisy(truth(i, metric), 0.2) })),
      ),
    ),
  };
}

// Every expected value below is worked out by hand from report.fixture.ts; the comments show how.
const report: AgreementReport = computeAgreementReport(fixtureInput(), { iterations: 200 });

function metric(id: string): MetricReport {
  const found = report.metrics.find((m) => m.metric === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
}

describe("human majority", () => {
  it("counts cannot_tell as no vote, leaves ties without a majority and lets an adjudication override", () => {
    const majorities = humanMajorities(fixtureInput());
    expect(majorities.map((m) => `${m.runId}:${m.metric}`)).toEqual([
      "r1:syntax",
      "r1:file_read",
      "r2:syntax",
      "r2:file_read",
      "r3:file_read",
      "r4:file_read",
    ]);
    expect(majorities[3]).toEqual({
      runId: "r2",
      position: 1,
      metric: "file_read",
      votes: { violated: 1, notViolated: 2, cannotTell: 0 },
      kind: "split",
      majority: "not_violated",
      adjudication: null,
      reference: "not_violated",
      adjudicated: false,
    });
    // r3: V, N, cannot_tell -> a 1-1 tie; the admin decided "violated"
    expect(majorities[4]).toMatchObject({
      votes: { violated: 1, notViolated: 1, cannotTell: 1 },
      kind: "tie",
      majority: null,
      adjudication: "violated",
      reference: "violated",
      adjudicated: true,
    });
  });

  it("counts unanimous items, splits, ties and adjudications per metric", () => {
    expect(report.metrics.map((m) => m.metric)).toEqual(["syntax", "file_read"]);
    expect(metric("file_read")).toMatchObject({
      items: 4,
      votes: { unanimous: 2, split: 1, tie: 1, empty: 0 },
      adjudicated: 1,
      decided: 4,
      cannotTell: 1,
    });
    expect(metric("syntax")).toMatchObject({ items: 2, votes: { unanimous: 1, split: 1, tie: 0, empty: 0 } });
  });
});

describe("judge vs the human majority", () => {
  it("scores the rule judge on file_read", () => {
    // reference V, N, V, N; judge V, V, V, N -> [[2, 0], [1, 1]]
    const rule = metric("file_read").judges[0]!;
    expect(rule).toMatchObject({ judgeId: 10, n: 4, agreed: 3, accuracy: 0.75, undecided: 0 });
    expect(rule.confusion).toEqual([
      [2, 0],
      [1, 1],
    ]);
    // Po = 3/4, Pe = 1/2 * 3/4 + 1/2 * 1/4 = 1/2 -> kappa = 1/2
    expect(rule.kappa).toBeCloseTo(0.5, 12);
    // pi_V = 5/8, pi_N = 3/8, Pe = 2 * 15/64 = 15/32 -> AC1 = (3/4 - 15/32) / (17/32) = 9/17
    expect(rule.ac1).toBeCloseTo(9 / 17, 12);
    // Wilson 95% of 3/4
    expect(rule.interval![0]).toBeCloseTo(0.30064, 4);
    expect(rule.interval![1]).toBeCloseTo(0.95441, 4);
  });

  it("leaves undecided verdicts out and counts them", () => {
    // r4 is not_applicable for the LLM judge: pairs (V,V) (N,N) (V,N) -> [[1, 1], [0, 1]]
    const llm = metric("file_read").judges[1]!;
    expect(llm).toMatchObject({ judgeId: 20, n: 3, agreed: 2, undecided: 1 });
    expect(llm.accuracy).toBeCloseTo(2 / 3, 12);
    // Pe = 2/3 * 1/3 + 1/3 * 2/3 = 4/9 -> kappa = (2/9) / (5/9) = 0.4; pi = 1/2 each -> AC1 = 1/3
    expect(llm.kappa).toBeCloseTo(0.4, 12);
    expect(llm.ac1).toBeCloseTo(1 / 3, 12);
  });

  it("returns null where a statistic is undefined", () => {
    // the rule judge and the humans all say N on syntax: kappa is 0/0, AC1 is 1
    const rule = metric("syntax").judges[0]!;
    expect(rule).toMatchObject({ n: 2, agreed: 2, accuracy: 1, kappa: null, ac1: 1 });
    const llm = metric("syntax").judges[1]!;
    // [[0, 0], [1, 1]]: Pe = 1/2 -> kappa 0; pi_V = 1/4 -> Pe = 3/8, AC1 = (1/8) / (5/8) = 0.2
    expect(llm.kappa).toBeCloseTo(0, 12);
    expect(llm.ac1).toBeCloseTo(0.2, 12);
  });
});

describe("agreement among the annotators", () => {
  it("computes Fleiss' kappa on full items, alpha on all votes and the pairwise kappas", () => {
    const humans = metric("file_read").humans;
    // full items r1 [3,0], r2 [1,2], r4 [0,3]: P = 7/9, Pe = 41/81 -> kappa = 22/40
    expect(humans.fleissItems).toBe(3);
    expect(humans.fleissKappa).toBeCloseTo(0.55, 12);
    // n = 11 values, Do = 4/11, De = 60/110 -> alpha = 1/3
    expect(humans.alphaUnits).toBe(4);
    expect(humans.alpha).toBeCloseTo(1 / 3, 12);
    expect(humans.pairwise.map((p) => [p.userA, p.userB, p.n])).toEqual([
      [1, 2, 4],
      [1, 3, 3],
      [2, 3, 3],
    ]);
    expect(humans.pairwise[0]!.kappa).toBeCloseTo(0.2, 12);
    expect(humans.pairwise[1]!.kappa).toBeCloseTo(0.4, 12);
    expect(humans.pairwise[2]!.kappa).toBeCloseTo(1, 12);

    const syntax = metric("syntax").humans;
    // [0,3] and [1,2]: P = 2/3, Pe = 26/36 -> kappa = -0.2; Do = De = 1/3 -> alpha = 0
    expect(syntax.fleissKappa).toBeCloseTo(-0.2, 12);
    expect(syntax.alpha).toBeCloseTo(0, 12);
  });

  it("rates each annotator against the majority of the others", () => {
    expect(report.annotatorQuality.map((a) => [a.username, a.n, a.agreed, a.labels, a.cannotTell])).toEqual([
      ["ann", 5, 3, 6, 0],
      ["bob", 5, 3, 6, 0],
      ["cat", 3, 3, 6, 1],
    ]);
    expect(report.annotatorQuality[0]!.rate).toBeCloseTo(0.6, 12);
    expect(report.annotatorQuality[0]!.perMetric).toEqual([
      { metric: "syntax", n: 1, agreed: 1, rate: 1, interval: expect.any(Array) },
      { metric: "file_read", n: 4, agreed: 2, rate: 0.5, interval: expect.any(Array) },
    ]);
  });
});

describe("macro averages and judges side by side", () => {
  it("averages the defined per-metric values", () => {
    const [rule, llm] = report.macro.judges;
    expect(rule!.accuracy).toMatchObject({ value: 0.875, metrics: 2 });
    expect(rule!.kappa).toMatchObject({ value: 0.5, metrics: 1 });
    expect(rule!.ac1.value).toBeCloseTo((9 / 17 + 1) / 2, 12);
    expect(llm!.accuracy.value).toBeCloseTo(7 / 12, 12);
    expect(llm!.kappa.value).toBeCloseTo(0.2, 12);
    expect(llm!.ac1.value).toBeCloseTo(4 / 15, 12);
    expect(report.macro.humans.fleissKappa.value).toBeCloseTo(0.175, 12);
    expect(report.macro.humans.alpha.value).toBeCloseTo(1 / 6, 12);
  });

  it("gives seeded bootstrap intervals: the same seed the same interval, another seed another", () => {
    const input = largerInput();
    const a = computeAgreementReport(input, { iterations: 300 });
    expect(a.bootstrap).toEqual({ seed: 42, iterations: 300, level: 0.95 });
    expect(computeAgreementReport(input, { iterations: 300 }).macro).toEqual(a.macro);
    expect(computeAgreementReport(input, { iterations: 300, seed: 7 }).macro).not.toEqual(a.macro);
    for (const judge of a.macro.judges) {
      for (const stat of [judge.accuracy, judge.kappa, judge.ac1]) {
        const [lo, hi] = stat.interval!;
        expect(lo).toBeLessThanOrEqual(stat.value!);
        expect(hi).toBeGreaterThanOrEqual(stat.value!);
        expect(hi - lo).toBeGreaterThan(0);
      }
    }
  });

  it("bootstraps exactly what bootstrapInterval gives on the per-metric tables, resampling items", () => {
    const input = largerInput();
    const fast = computeAgreementReport(input, { iterations: 250, seed: 3 });
    const majority = new Map(humanMajorities(input).map((m) => [`${m.runId}:${m.metric}`, m.reference]));
    const verdict = new Map(input.verdicts.map((v) => [`${v.runId}:${v.metric}:${v.judgeId}`, v.value]));
    const macroOf = (judgeId: number, statistic: (table: number[][]) => number | null) => (sample: number[]) => {
      const values = (["syntax", "file_read"] as const).map((metric) => {
        const pairs = sample.flatMap((i) => {
          const runId = input.items[i]!.runId;
          const reference = majority.get(`${runId}:${metric}`);
          const judged = verdict.get(`${runId}:${metric}:${judgeId}`);
          return reference && (judged === "violated" || judged === "not_violated")
            ? [[reference, judged] as const]
            : [];
        });
        return statistic(confusionMatrix(pairs, ["violated", "not_violated"]));
      });
      const defined = values.filter((v): v is number => v !== null);
      return defined.length === 0 ? null : defined.reduce((a, b) => a + b, 0) / defined.length;
    };
    const indexes = input.items.map((_, i) => i);
    const options = { seed: 3, iterations: 250 };
    expect(fast.macro.judges[0]!.accuracy.interval).toEqual(
      bootstrapInterval(indexes, macroOf(10, percentAgreement), options),
    );
    expect(fast.macro.judges[1]!.kappa.interval).toEqual(bootstrapInterval(indexes, macroOf(20, cohenKappa), options));
    expect(fast.macro.judges[1]!.ac1.interval).toEqual(bootstrapInterval(indexes, macroOf(20, gwetAC1), options));
  });

  it("lists the items a judge flips toward or away from the humans", () => {
    expect(report.flips).toHaveLength(1);
    const flips = report.flips[0]!;
    // file_read r2 (rule V wrong, LLM N right) toward; r3 (LLM N wrong) and r4 (LLM undecided) away;
    // syntax r2 (LLM V wrong) away. McNemar b = 3, c = 1: p = 2 * 5/16
    expect(flips).toMatchObject({ baseJudgeId: 10, candidateJudgeId: 20, toward: 1, away: 3 });
    expect(flips.pValue).toBeCloseTo(0.625, 12);
    expect(flips.perMetric).toEqual([
      { metric: "syntax", toward: 0, away: 1 },
      { metric: "file_read", toward: 1, away: 2 },
    ]);
    expect(flips.items.map((f) => [f.runId, f.metric, f.direction, f.base, f.candidate])).toEqual([
      ["r2", "syntax", "away", "not_violated", "violated"],
      ["r2", "file_read", "toward", "violated", "not_violated"],
      ["r3", "file_read", "away", "violated", "not_violated"],
      ["r4", "file_read", "away", "not_violated", "not_applicable"],
    ]);
  });
});

describe("input checks", () => {
  it("ignores labels on a metric the item does not ask about", () => {
    const input = fixtureInput();
    input.labels.push({ runId: "r3", userId: 1, metric: "syntax", value: "violated" });
    expect(computeAgreementReport(input, { iterations: 10 }).metrics).toEqual(
      computeAgreementReport(fixtureInput(), { iterations: 10 }).metrics,
    );
  });

  it("rejects labels from outside the set and duplicates", () => {
    const stranger = fixtureInput();
    stranger.labels.push({ runId: "r1", userId: 99, metric: "syntax", value: "violated" });
    expectInvalid(() => computeAgreementReport(stranger), 'user 99 labeled run "r1" but is not an annotator');
    const twice = fixtureInput();
    twice.labels.push({ runId: "r1", userId: 1, metric: "syntax", value: "violated" });
    expectInvalid(() => computeAgreementReport(twice), 'labeled syntax of "r1" twice');
    const outside = fixtureInput();
    outside.adjudications.push({ runId: "r9", metric: "syntax", value: "violated" });
    expectInvalid(() => computeAgreementReport(outside), "not an item");
  });

  it("reports an empty set without failing", () => {
    const empty = computeAgreementReport({ ...fixtureInput(), items: [], labels: [], adjudications: [] });
    expect(empty.metrics).toEqual([]);
    expect(empty.macro.judges[0]!.accuracy).toEqual({ value: null, interval: null, metrics: 0 });
  });
});
