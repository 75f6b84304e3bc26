import { describe, expect, it } from "vitest";
import { wilsonInterval, Z_95 } from "./intervals";
import { expectInvalid } from "./test-support";

describe("wilsonInterval properties", () => {
  it("contains p-hat and stays in [0, 1] for every x/n up to n = 60", () => {
    for (let n = 1; n <= 60; n++) {
      for (let x = 0; x <= n; x++) {
        const [lower, upper] = wilsonInterval(x, n);
        expect(lower).toBeGreaterThanOrEqual(0);
        expect(upper).toBeLessThanOrEqual(1);
        expect(lower).toBeLessThanOrEqual(x / n);
        expect(upper).toBeGreaterThanOrEqual(x / n);
        expect(upper).toBeGreaterThan(lower);
      }
    }
  });

  it("is mirror-symmetric: the interval of n - x failures is 1 minus the interval of x", () => {
    const [lower, upper] = wilsonInterval(7, 40);
    const [mirrorLower, mirrorUpper] = wilsonInterval(33, 40);
    expect(mirrorLower).toBeCloseTo(1 - upper, 12);
    expect(mirrorUpper).toBeCloseTo(1 - lower, 12);
  });

  it("ends exactly at 0 for 0 successes and at 1 for n successes", () => {
    expect(wilsonInterval(0, 5)[0]).toBe(0);
    expect(wilsonInterval(5, 5)[1]).toBe(1);
  });

  it("narrows with more data and widens with a larger z", () => {
    const width = ([lower, upper]: [number, number]) => upper - lower;
    expect(width(wilsonInterval(40, 200))).toBeLessThan(width(wilsonInterval(4, 20)));
    expect(width(wilsonInterval(4, 20, 2.5758293035489))).toBeGreaterThan(width(wilsonInterval(4, 20)));
  });

  it("defaults z to the 95% critical value", () => {
    expect(wilsonInterval(3, 11)).toEqual(wilsonInterval(3, 11, Z_95));
    expect(Z_95).toBe(1.959963984540054);
  });
});

describe("wilsonInterval edge cases", () => {
  it("returns [0, 1] for n = 0: no data rules nothing out", () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it("rejects successes above n, negative or fractional counts, and a non-positive z", () => {
    expectInvalid(() => wilsonInterval(5, 4), "wilsonInterval: successes must not exceed n");
    expectInvalid(() => wilsonInterval(-1, 4), "wilsonInterval: successes must not be negative (got -1)");
    expectInvalid(() => wilsonInterval(1, 4.5), "wilsonInterval: n must be a whole number");
    expectInvalid(() => wilsonInterval(1, 4, 0), "wilsonInterval: z must be positive");
    expectInvalid(() => wilsonInterval(1, 4, NaN), "wilsonInterval: z must be a finite number");
  });
});
