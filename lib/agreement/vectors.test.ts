/**
 * Every published test vector of the agreement statistics (Cohen, Fleiss 1971, Krippendorff, Gwet, Wilson), section by section, to 4 decimals
 * (toBeCloseTo(x, 4) passes when |actual - x| < 5e-5).
 */
import { describe, expect, it } from "vitest";
import { gwetAC1Stats } from "./ac1";
import { krippendorffAlphaStats } from "./alpha";
import { categoryCounts } from "./confusion";
import { fleissKappaStats } from "./fleiss";
import { wilsonInterval } from "./intervals";
import { cohenKappa, cohenKappaStats } from "./kappa";

describe("Cohen's kappa vectors", () => {
  it("[[20,5],[10,15]]: Po 0.70, Pe 0.50, kappa 0.40", () => {
    const stats = cohenKappaStats([
      [20, 5],
      [10, 15],
    ]);
    expect(stats.n).toBe(50);
    expect(stats.observedAgreement).toBeCloseTo(0.7, 4);
    expect(stats.expectedAgreement).toBeCloseTo(0.5, 4);
    expect(stats.kappa).toBeCloseTo(0.4, 4);
  });

  it("same Po with other marginals: 0.1304 and 0.2593", () => {
    expect(
      cohenKappa([
        [45, 15],
        [25, 15],
      ]),
    ).toBeCloseTo(0.1304, 4);
    expect(
      cohenKappa([
        [25, 35],
        [5, 35],
      ]),
    ).toBeCloseTo(0.2593, 4);
  });

  it("[[0,4,1],[0,8,0],[0,1,5]]: kappa, asymptotic SE and CI, SE under H0 and z", () => {
    const stats = cohenKappaStats([
      [0, 4, 1],
      [0, 8, 0],
      [0, 1, 5],
    ]);
    expect(stats.kappa).toBeCloseTo(0.4842, 4);
    expect(stats.standardError).toBeCloseTo(0.138, 4);
    expect(stats.interval?.[0]).toBeCloseTo(0.2137, 4);
    expect(stats.interval?.[1]).toBeCloseTo(0.7547, 4);
    expect(stats.standardErrorNull).toBeCloseTo(0.1484, 4);
    expect(stats.zStatistic).toBeCloseTo(3.2626, 4);
  });
});

describe("Fleiss' kappa vectors", () => {
  it("10 subjects, 14 raters, 5 categories: P-bar, Pe-bar, kappa", () => {
    const stats = fleissKappaStats([
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ]);
    expect(stats.subjects).toBe(10);
    expect(stats.raters).toBe(14);
    expect(stats.observedAgreement).toBeCloseTo(0.378022, 4);
    expect(stats.expectedAgreement).toBeCloseTo(0.212755, 4);
    expect(stats.kappa).toBeCloseTo(0.2099, 4);
  });

  it("Fleiss (1971), 30 patients x 6 psychiatrists from the raw ratings", () => {
    const raw =
      "444444 222555 233335 555555 222444 113333 333355 113334 114444 555555 144444 124444 222333 144444 224445 333335 111455 111112 224444 133555 555555 244444 224555 114444 144445 222224 111155 224444 133333 555555";
    const ratings = raw.split(" ").map((patient) => [...patient].map(Number));
    const stats = fleissKappaStats(categoryCounts(ratings, [1, 2, 3, 4, 5]));
    expect(stats.subjects).toBe(30);
    expect(stats.raters).toBe(6);
    expect(stats.categoryTotals).toEqual([26, 26, 30, 55, 43]);
    expect(stats.observedAgreement).toBeCloseTo(0.555556, 4);
    expect(stats.expectedAgreement).toBeCloseTo(0.219938, 4);
    expect(stats.kappa).toBeCloseTo(0.4302, 4);
  });
});

describe("Krippendorff's alpha vector", () => {
  it("canonical 4 observers x 12 units with missing values: n = 40, alpha = 0.7434", () => {
    const rows = [
      "1 2 3 3 2 1 4 1 2 . . .",
      "1 2 3 3 2 2 4 1 2 5 . 3",
      ". 3 3 3 2 3 4 2 2 5 1 .",
      "1 2 3 3 2 4 4 1 2 5 1 .",
    ];
    const data = rows.map((row) => row.split(" ").map((cell) => (cell === "." ? null : Number(cell))));
    const stats = krippendorffAlphaStats(data);
    expect(stats.pairableValues).toBe(40);
    expect(stats.units).toBe(11);
    expect(stats.alpha).toBeCloseTo(0.7434, 4);
  });
});

describe("Gwet's AC1 vector", () => {
  const table = [
    [13, 0, 0],
    [0, 20, 7],
    [0, 4, 56],
  ];

  it("Pa 0.89, Pe 0.269925, AC1 0.8493", () => {
    const stats = gwetAC1Stats(table);
    expect(stats.categories).toBe(3);
    expect(stats.observedAgreement).toBeCloseTo(0.89, 4);
    expect(stats.expectedAgreement).toBeCloseTo(0.269925, 4);
    expect(stats.ac1).toBeCloseTo(0.8493, 4);
  });

  it("Cohen's kappa on the same table is 0.7964", () => {
    expect(cohenKappa(table)).toBeCloseTo(0.7964, 4);
  });
});

describe("Wilson score interval vectors (95%, no continuity correction)", () => {
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("%i/%i -> (%f, %f)", (successes, n, lower, upper) => {
    const [low, high] = wilsonInterval(successes, n);
    expect(low).toBeCloseTo(lower, 4);
    expect(high).toBeCloseTo(upper, 4);
  });

  it("the row's rounded z = 1.959964 gives the same bounds", () => {
    const [low, high] = wilsonInterval(81, 263, 1.959964);
    expect(low).toBeCloseTo(0.2553, 4);
    expect(high).toBeCloseTo(0.3662, 4);
  });
});
