import { z } from "zod";
import { logChoose } from "./lgamma";
import { CountSchema } from "./schema";
import { parseInput } from "./validate";

export interface McNemarResult {
  /** Discordant pairs where only A violated. */
  b: number;
  /** Discordant pairs where only B violated. */
  c: number;
  /** b + c. */
  discordant: number;
  pValue: number;
  /**
   * ln(pValue), exact even when pValue underflows to 0 (e.g. b = 0, c = 100,000 gives
   * ln p = -69314.02), so a report can still print "p < 1e-300" honestly.
   */
  logPValue: number;
}

const InputSchema = z.object({ b: CountSchema, c: CountSchema });

/**
 * Two-sided exact McNemar test: under H0 each discordant pair is equally likely to go either way,
 * so min(b, c) ~ Bin(b + c, 1/2) and p = min(1, 2 * P(X <= min(b, c))). b + c = 0 gives p = 1 (no
 * evidence either way). Computed in log space, stable for b + c in the hundreds of thousands.
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  parseInput(InputSchema, { b, c }, "mcnemarExact");
  const n = b + c;
  const m = Math.min(b, c);
  // With b = c the lower tail already holds at least half the mass, so 2 * tail >= 1.
  const logPValue = n === 0 || 2 * m === n ? 0 : Math.min(0, Math.LN2 + logLowerTailHalf(m, n));
  return { b, c, discordant: n, pValue: Math.exp(logPValue), logPValue };
}

/**
 * ln P(X <= m) for X ~ Bin(n, 1/2) and m < n / 2. Starts at the largest term, P(X = m), and adds
 * the smaller ones as ratios to it: each step multiplies by k / (n - k + 1) < 1, so the sum is
 * formed in [1, n] without underflow and stops once the terms no longer change it.
 */
function logLowerTailHalf(m: number, n: number): number {
  const logTop = logChoose(n, m) - n * Math.LN2;
  let term = 1;
  let total = 1;
  for (let k = m; k >= 1; k--) {
    term *= k / (n - k + 1);
    total += term;
    if (term < total * Number.EPSILON) break;
  }
  return logTop + Math.log(total);
}
