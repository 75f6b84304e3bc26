import { describe, expect, it } from "vitest";
import { fleissKappa, fleissKappaStats } from "./fleiss";
import { expectInvalid, transpose } from "./test-support";

/** Scott's pi of a two-rater table: what Fleiss' kappa reduces to with two raters. */
function scottsPi(table: number[][]): number {
  const n = table.flat().reduce((a, b) => a + b, 0);
  const po = table.reduce((acc, row, i) => acc + (row[i] ?? 0), 0) / n;
  const columns = transpose(table);
  const pe = table.reduce((acc, row, k) => {
    const pooled = (row.reduce((a, b) => a + b, 0) + (columns[k] ?? []).reduce((a, b) => a + b, 0)) / (2 * n);
    return acc + pooled * pooled;
  }, 0);
  return (po - pe) / (1 - pe);
}

/** Two-rater table -> one Fleiss row per item. */
function itemsOf(table: number[][]): number[][] {
  const rows: number[][] = [];
  table.forEach((row, a) =>
    row.forEach((count, b) => {
      for (let i = 0; i < count; i++) rows.push(row.map((_, k) => (k === a ? 1 : 0) + (k === b ? 1 : 0)));
    }),
  );
  return rows;
}

describe("fleissKappa properties", () => {
  it("is 1 when every subject is unanimous and more than one category is used", () => {
    expect(
      fleissKappa([
        [3, 0, 0],
        [0, 3, 0],
        [0, 0, 3],
        [3, 0, 0],
      ]),
    ).toBeCloseTo(1, 12);
  });

  it("equals Scott's pi with two raters", () => {
    const table = [
      [13, 0, 0],
      [0, 20, 7],
      [0, 4, 56],
    ];
    expect(fleissKappa(itemsOf(table))).toBeCloseTo(scottsPi(table), 12);
  });

  it("does not depend on the order of subjects or categories", () => {
    const counts = [
      [0, 2, 1],
      [3, 0, 0],
      [1, 1, 1],
      [0, 0, 3],
    ];
    const reordered = counts.map((row) => [...row].reverse()).reverse();
    expect(fleissKappa(reordered)).toBeCloseTo(fleissKappa(counts) as number, 12);
  });

  it("is at least -1 / (raters - 1), its minimum", () => {
    // Three raters, two categories, always a 2-1 split: the most disagreement three raters can show.
    expect(
      fleissKappa([
        [2, 1],
        [1, 2],
        [2, 1],
        [1, 2],
      ]),
    ).toBeCloseTo(-1 / 3, 12);
  });
});

describe("fleissKappa edge cases", () => {
  it("returns null for no subjects", () => {
    expect(fleissKappaStats([])).toEqual({
      subjects: 0,
      raters: 0,
      categoryTotals: [],
      observedAgreement: null,
      expectedAgreement: null,
      kappa: null,
    });
  });

  it("returns null when every rating is in one category", () => {
    expect(
      fleissKappaStats([
        [3, 0],
        [3, 0],
      ]),
    ).toMatchObject({ observedAgreement: 1, expectedAgreement: 1, kappa: null });
    expect(fleissKappa([[4]])).toBeNull();
  });

  it("rejects subjects with different numbers of raters, pointing to alpha", () => {
    expectInvalid(
      () =>
        fleissKappa([
          [2, 1],
          [1, 1],
        ]),
      "same number of raters on every row",
    );
    expectInvalid(
      () =>
        fleissKappa([
          [2, 1],
          [1, 1],
        ]),
      "krippendorffAlphaNominal",
    );
  });

  it("rejects fewer than two raters, ragged rows, negative and fractional counts", () => {
    expectInvalid(
      () =>
        fleissKappa([
          [1, 0],
          [0, 1],
        ]),
      "fleissKappa: counts needs at least 2 raters per subject (got 1)",
    );
    expectInvalid(() => fleissKappa([[]]), "at least 2 raters");
    expectInvalid(() => fleissKappa([[2, 1], [3]]), "same categories on every row");
    expectInvalid(
      () =>
        fleissKappa([
          [4, -1],
          [2, 1],
        ]),
      "counts[0][1] must not be negative",
    );
    expectInvalid(
      () =>
        fleissKappa([
          [1.5, 1.5],
          [2, 1],
        ]),
      "counts[0][0] must be a whole number",
    );
  });
});
