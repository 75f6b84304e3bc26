import { z } from "zod";
import { CountSchema, CriticalValueSchema } from "./schema";
import { parseInput } from "./validate";

/** The two-sided 95% critical value of the standard normal, Phi^-1(0.975). */
export const Z_95 = 1.959963984540054;

const WilsonInputSchema = z
  .object({ successes: CountSchema, n: CountSchema, z: CriticalValueSchema })
  .refine((input) => input.successes <= input.n, { error: "successes must not exceed n" });

/**
 * Wilson score interval for a binomial proportion, without continuity correction. Chosen over the
 * Wald interval because accuracy sits near 0 or 1 on rare misbehaviors, where Wald collapses to a
 * zero-width interval.
 *
 * n = 0 returns [0, 1]: with no observations nothing is ruled out, and it is also the limit of the
 * formula as n -> 0, so the interval never has to be special-cased by the caller.
 */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): [number, number] {
  parseInput(WilsonInputSchema, { successes, n, z }, "wilsonInterval");
  if (n === 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0/n and n/n the bound is exactly 0 or 1 in theory; rounding can land a hair outside.
  const lower = successes === 0 ? 0 : Math.max(0, center - halfWidth);
  const upper = successes === n ? 1 : Math.min(1, center + halfWidth);
  return [lower, upper];
}
