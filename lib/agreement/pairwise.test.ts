import { describe, expect, it } from "vitest";
import { confusionMatrix } from "./confusion";
import { cohenKappa } from "./kappa";
import { pairwiseCohenKappas } from "./pairwise";
import { expectInvalid } from "./test-support";

const CATEGORIES = ["y", "n"];

describe("pairwiseCohenKappas", () => {
  it("computes Cohen's kappa for each rater pair on the units both labeled", () => {
    const ratings = [
      ["y", "y", "n", "n", "y", null],
      ["y", "n", "n", "n", "y", "n"],
      ["y", "y", "n", "y", null, "n"],
    ];
    const result = pairwiseCohenKappas(ratings, CATEGORIES);
    expect(result.map(({ raterA, raterB, n }) => [raterA, raterB, n])).toEqual([
      [0, 1, 5],
      [0, 2, 4],
      [1, 2, 5],
    ]);
    const table02 = confusionMatrix(
      [
        ["y", "y"],
        ["y", "y"],
        ["n", "n"],
        ["n", "y"],
      ],
      CATEGORIES,
    );
    expect(result[1]?.kappa).toBeCloseTo(cohenKappa(table02) as number, 12);
    expect(result[1]?.observedAgreement).toBeCloseTo(0.75, 12);
  });

  it("gives null kappa for a pair with no shared units and no pairs for one rater", () => {
    expect(
      pairwiseCohenKappas(
        [
          ["y", null],
          [null, "n"],
        ],
        CATEGORIES,
      ),
    ).toEqual([{ raterA: 0, raterB: 1, n: 0, observedAgreement: null, kappa: null }]);
    expect(pairwiseCohenKappas([["y", "n"]], CATEGORIES)).toEqual([]);
    expect(pairwiseCohenKappas([], CATEGORIES)).toEqual([]);
  });

  it("rejects ragged rows and unknown labels", () => {
    expectInvalid(
      () => pairwiseCohenKappas([["y", "n"], ["y"]], CATEGORIES),
      "ratings[1] has 1 units, ratings[0] has 2",
    );
    expectInvalid(() => pairwiseCohenKappas([["y"], ["x"]], CATEGORIES), 'is "x", not one of the categories');
  });
});
