import { describe, expect, it } from "vitest";
import { mcnemarExact } from "./mcnemar";
import { expectInvalid } from "./test-support";

/** Direct two-sided p from the binomial pmf, fine for small n (C(n, k) exact below 2^53). */
function directP(b: number, c: number): number {
  const n = b + c;
  let tail = 0;
  let choose = 1;
  for (let k = 0; k <= Math.min(b, c); k++) {
    tail += choose / 2 ** n;
    choose = (choose * (n - k)) / (k + 1);
  }
  return Math.min(1, 2 * tail);
}

describe("mcnemarExact", () => {
  it("matches known binomial values", () => {
    expect(mcnemarExact(0, 5).pValue).toBeCloseTo(0.0625, 12);
    expect(mcnemarExact(1, 9).pValue).toBeCloseTo(0.021484375, 12); // 22 / 1024
    expect(mcnemarExact(10, 30).pValue).toBeCloseTo(0.0022214337732293643, 12);
  });

  it("matches the direct sum for every b, c with b + c <= 50", () => {
    for (let n = 1; n <= 50; n++) {
      for (let b = 0; b <= n; b++) {
        expect(mcnemarExact(b, n - b).pValue).toBeCloseTo(directP(b, n - b), 12);
      }
    }
  });

  it("is symmetric in b and c and returns 1 at b = c", () => {
    expect(mcnemarExact(3, 17)).toMatchObject({ pValue: mcnemarExact(17, 3).pValue, discordant: 20 });
    expect(mcnemarExact(12, 12).pValue).toBe(1);
    expect(mcnemarExact(0, 1).pValue).toBe(1);
  });

  it("returns p = 1 when there are no discordant pairs", () => {
    expect(mcnemarExact(0, 0)).toEqual({ b: 0, c: 0, discordant: 0, pValue: 1, logPValue: 0 });
  });

  it("falls as the split grows more lopsided", () => {
    const ps = [50, 45, 40, 30, 20, 10, 0].map((b) => mcnemarExact(b, 100 - b).pValue);
    for (let i = 1; i < ps.length; i++) expect(ps[i]).toBeLessThan(ps[i - 1] as number);
  });

  // Reference values: exact integer sums of C(n, k) in Python, divided by 2^n in mpmath (40 digits).
  it.each([
    [49900, 50100, 0.52915729408019314, -0.63646954901469707],
    [49500, 50500, 0.0015823598788515956, -6.4488379520358171],
    [49000, 51000, 2.5887160383468979e-10, -22.074688915237764],
    [700, 1300, 1.6293497027604705e-41, -93.91780783290274],
    [40000, 60000, 0, -2017.7216411965768],
    [1, 99999, 0, -69302.511973349051],
    [0, 100000, 0, -69314.024908813971],
  ])("stays accurate at b = %i, c = %i", (b, c, pValue, logPValue) => {
    const result = mcnemarExact(b, c);
    if (pValue > 0) expect(Math.abs(result.pValue / pValue - 1)).toBeLessThan(1e-8);
    else expect(result.pValue).toBe(0);
    expect(Math.abs(result.logPValue - logPValue)).toBeLessThan(1e-8 * Math.max(1, -logPValue));
  });

  it("rejects negative and fractional counts", () => {
    expectInvalid(() => mcnemarExact(-1, 3), "mcnemarExact: b must not be negative (got -1)");
    expectInvalid(() => mcnemarExact(1, 2.5), "mcnemarExact: c must be a whole number");
  });
});
