import { describe, expect, it } from "vitest";
import { krippendorffAlphaNominal, krippendorffAlphaStats } from "./alpha";
import { fleissKappa } from "./fleiss";
import { expectInvalid } from "./test-support";

describe("krippendorffAlphaNominal properties", () => {
  it("is 1 on perfect agreement, missing values included", () => {
    expect(
      krippendorffAlphaNominal([
        ["yes", "no", null, "no"],
        ["yes", "no", "yes", null],
        [null, "no", "yes", "no"],
      ]),
    ).toBeCloseTo(1, 12);
  });

  it("equals 1 - (1 - Scott's pi)(n - 1)/n for two raters without missing values", () => {
    // n = 2N pairable values; Scott's pi is Fleiss' kappa with two raters.
    const a = [1, 1, 2, 2, 3, 1, 2, 3, 3, 1];
    const b = [1, 2, 2, 2, 3, 1, 1, 3, 2, 1];
    const counts = a.map((x, i) => [1, 2, 3].map((k) => (x === k ? 1 : 0) + (b[i] === k ? 1 : 0)));
    const pi = fleissKappa(counts) as number;
    const n = 2 * a.length;
    expect(krippendorffAlphaNominal([a, b])).toBeCloseTo(1 - ((1 - pi) * (n - 1)) / n, 12);
  });

  it("drops units with fewer than two values", () => {
    const base = [
      [1, 2, 1, 1],
      [1, 2, 2, 1],
    ];
    const withLoners = [
      [1, 2, 1, 1, 3, null],
      [1, 2, 2, 1, null, null],
    ];
    expect(krippendorffAlphaStats(withLoners)).toEqual(krippendorffAlphaStats(base));
  });

  it("does not depend on the order of raters or units", () => {
    const data = [
      [1, 2, 3, 3, null],
      [1, 2, 3, 2, 1],
      [null, 3, 3, 3, 1],
    ];
    const reordered = [...data].reverse().map((row) => [...row].reverse());
    expect(krippendorffAlphaNominal(reordered)).toBeCloseTo(krippendorffAlphaNominal(data) as number, 12);
  });

  it("treats 1 and '1' as different categories (SameValueZero)", () => {
    expect(
      krippendorffAlphaNominal([
        [1, 2],
        ["1", 2],
      ]),
    ).toBeLessThan(1);
  });
});

describe("krippendorffAlphaNominal edge cases", () => {
  it("returns null with no pairable values: empty data, one rater, all units single-valued", () => {
    const none = { units: 0, pairableValues: 0, observedDisagreement: null, expectedDisagreement: null, alpha: null };
    expect(krippendorffAlphaStats([])).toEqual(none);
    expect(krippendorffAlphaStats([[]])).toEqual(none);
    expect(krippendorffAlphaStats([[1, 2, 3]])).toEqual(none);
    expect(
      krippendorffAlphaStats([
        [1, null],
        [null, 2],
      ]),
    ).toEqual(none);
  });

  it("returns null when every pairable value is the same (De = 0)", () => {
    expect(
      krippendorffAlphaStats([
        ["no", "no"],
        ["no", "no"],
      ]),
    ).toMatchObject({
      pairableValues: 4,
      observedDisagreement: 0,
      expectedDisagreement: 0,
      alpha: null,
    });
  });

  it("rejects ragged rows and values that are not string, finite number or null", () => {
    expectInvalid(() => krippendorffAlphaNominal([[1, 2], [1]]), "row 0 has 2, row 1 has 1");
    expectInvalid(() => krippendorffAlphaNominal([[1, NaN]]), "krippendorffAlphaNominal: data[0][1] must be a string");
    expectInvalid(() => krippendorffAlphaNominal([[1, undefined as unknown as null]]), "data[0][1]");
    expectInvalid(() => krippendorffAlphaNominal([[1, true as unknown as number]]), "data[0][1]");
  });
});
