import { describe, expect, it } from "vitest";
import { gwetAC1, gwetAC1Stats } from "./ac1";
import { cohenKappa } from "./kappa";
import { expectInvalid, transpose } from "./test-support";

describe("gwetAC1 properties", () => {
  it("is 1 on perfect agreement", () => {
    expect(
      gwetAC1([
        [4, 0],
        [0, 9],
      ]),
    ).toBeCloseTo(1, 12);
    expect(
      gwetAC1([
        [0, 0],
        [0, 9],
      ]),
    ).toBeCloseTo(1, 12);
  });

  it("matches the two-category closed form Pe = 2 pi (1 - pi)", () => {
    const [a, b, c, d] = [30, 6, 4, 60];
    const n = a + b + c + d;
    const pi = (2 * a + b + c) / (2 * n);
    const pe = 2 * pi * (1 - pi);
    expect(
      gwetAC1([
        [a, b],
        [c, d],
      ]),
    ).toBeCloseTo(((a + d) / n - pe) / (1 - pe), 12);
  });

  it("is symmetric under transpose", () => {
    const table = [
      [3, 9, 1],
      [2, 0, 7],
      [5, 5, 5],
    ];
    expect(gwetAC1(transpose(table))).toBeCloseTo(gwetAC1(table) as number, 12);
  });

  it("stays high on a rare misbehavior where kappa collapses (the kappa paradox)", () => {
    const rare = [
      [1, 2],
      [2, 95],
    ];
    expect(cohenKappa(rare)).toBeLessThan(0.35);
    expect(gwetAC1(rare)).toBeGreaterThan(0.95);
  });

  it("counts unused categories in q", () => {
    const two = gwetAC1Stats([
      [5, 1],
      [2, 8],
    ]);
    const three = gwetAC1Stats([
      [5, 1, 0],
      [2, 8, 0],
      [0, 0, 0],
    ]);
    expect(three.categories).toBe(3);
    expect(three.expectedAgreement).toBeLessThan(two.expectedAgreement as number);
  });
});

describe("gwetAC1 edge cases", () => {
  it("returns null with no items or a single category", () => {
    expect(gwetAC1([])).toBeNull();
    expect(
      gwetAC1([
        [0, 0],
        [0, 0],
      ]),
    ).toBeNull();
    expect(gwetAC1Stats([[6]])).toMatchObject({ n: 6, categories: 1, observedAgreement: 1, ac1: null });
  });

  it("rejects non-square and negative tables", () => {
    expectInvalid(() => gwetAC1([[1, 2]]), "gwetAC1: table must be square");
    expectInvalid(
      () =>
        gwetAC1([
          [1, 0],
          [-2, 1],
        ]),
      "gwetAC1: table[1][0] must not be negative",
    );
  });
});
