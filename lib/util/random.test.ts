import { describe, expect, it } from "vitest";
import { seededRandom as mulberry32 } from "./random";

const draw = (seed: number, count: number) => {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => random());
};

describe("mulberry32", () => {
  it("repeats its sequence for the same seed and differs for another", () => {
    expect(draw(42, 50)).toEqual(draw(42, 50));
    expect(draw(43, 50)).not.toEqual(draw(42, 50));
  });

  it("draws in [0, 1) with a mean near 1/2", () => {
    const values = draw(7, 100_000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    // SD of the mean is 1/sqrt(12 * 1e5) ~ 0.0009; 0.005 is over 5 SDs.
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.005);
  });
});
