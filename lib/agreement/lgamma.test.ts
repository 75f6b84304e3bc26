import { describe, expect, it } from "vitest";
import { lgamma, logChoose } from "./lgamma";
import { expectInvalid } from "./test-support";

const relative = (actual: number, expected: number) => Math.abs(actual / expected - 1);

describe("lgamma", () => {
  it("equals ln((x - 1)!) at integers", () => {
    let factorial = 1;
    for (let x = 1; x <= 25; x++) {
      if (x > 1) factorial *= x - 1;
      expect(lgamma(x)).toBeCloseTo(Math.log(factorial), 12);
    }
  });

  // Reference values from mpmath.loggamma at 60 digits.
  it.each([
    [0.5, 0.57236494292470008707],
    [1e-3, 6.9071788853838536825],
    [3.7, 1.4280723266653881292],
    [50000.5, 490989.83315821402687],
    [100001, 1051299.2218991218651],
  ])("lgamma(%f) matches mpmath", (x, expected) => {
    expect(relative(lgamma(x), expected)).toBeLessThan(1e-13);
  });

  it("gives ln C(n, k)", () => {
    expect(Math.exp(logChoose(10, 3))).toBeCloseTo(120, 9);
    expect(logChoose(7, 0)).toBeCloseTo(0, 12);
  });

  it("rejects x <= 0 and non-finite x", () => {
    expectInvalid(() => lgamma(0), "lgamma: x must be a finite positive number (got 0)");
    expectInvalid(() => lgamma(-2.5), "got -2.5");
    expectInvalid(() => lgamma(NaN), "got NaN");
  });
});
