import { describe, expect, it } from "vitest";
import { agreementCounts, categoryCounts, confusionMatrix, percentAgreement } from "./confusion";
import { wilsonInterval } from "./intervals";
import { expectInvalid } from "./test-support";

const LABELS = ["violated", "not_violated"] as const;

describe("confusionMatrix", () => {
  it("counts (A, B) pairs into rows A and columns B in category order", () => {
    const pairs = [
      ["violated", "violated"],
      ["violated", "not_violated"],
      ["not_violated", "not_violated"],
      ["not_violated", "not_violated"],
    ] as const;
    expect(confusionMatrix(pairs, LABELS)).toEqual([
      [1, 1],
      [0, 2],
    ]);
  });

  it("keeps unused categories as zero rows and columns", () => {
    expect(confusionMatrix([[1, 1]], [1, 2, 3])).toEqual([
      [1, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(confusionMatrix([], LABELS)).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it("rejects unknown labels and duplicate categories", () => {
    expectInvalid(
      () => confusionMatrix([["violated", "maybe" as "violated"]], LABELS),
      'confusionMatrix: pairs[0][1] is "maybe", not one of the categories ("violated", "not_violated")',
    );
    expectInvalid(() => confusionMatrix([], ["a", "b", "a"]), 'confusionMatrix: categories[2] "a" is listed twice');
  });
});

describe("categoryCounts", () => {
  it("turns per-subject labels into Fleiss counts, skipping nulls", () => {
    expect(
      categoryCounts(
        [
          ["violated", "violated", "not_violated"],
          ["not_violated", null, "not_violated"],
        ],
        LABELS,
      ),
    ).toEqual([
      [2, 1],
      [0, 2],
    ]);
  });

  it("names an unknown label by subject and rater", () => {
    expectInvalid(() => categoryCounts([[1], [1, 7]], [1, 2]), "categoryCounts: ratings[1][1] is 7");
  });
});

describe("percentAgreement and agreementCounts", () => {
  const table = [
    [30, 4],
    [6, 60],
  ];

  it("is the diagonal share of the table, as a proportion", () => {
    expect(agreementCounts(table)).toEqual({ agreed: 90, total: 100 });
    expect(percentAgreement(table)).toBeCloseTo(0.9, 12);
  });

  it("feeds the Wilson interval of judge accuracy", () => {
    const { agreed, total } = agreementCounts(table);
    const [lower, upper] = wilsonInterval(agreed, total);
    expect(lower).toBeLessThan(0.9);
    expect(upper).toBeGreaterThan(0.9);
  });

  it("is null for an empty table and rejects a non-square one", () => {
    expect(percentAgreement([])).toBeNull();
    expect(percentAgreement([[0]])).toBeNull();
    expectInvalid(() => percentAgreement([[1, 2]]), "agreementCounts: table must be square");
  });
});
