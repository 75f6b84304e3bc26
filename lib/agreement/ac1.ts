import { at, sum } from "./numeric";
import { SquareTableSchema } from "./schema";
import { parseInput } from "./validate";

/** Gwet's AC1 for two raters and its parts. `null` = undefined (see gwetAC1). */
export interface GwetAC1Stats {
  n: number;
  /** q: the number of possible categories (the table size). */
  categories: number;
  /** Pa: share of items on the diagonal. */
  observedAgreement: number | null;
  /** Pe = sum_k pi_k (1 - pi_k) / (q - 1), pi_k the mean of the two raters' marginals. */
  expectedAgreement: number | null;
  ac1: number | null;
}

/**
 * Gwet's AC1 (Gwet 2008) for two raters; same table layout as cohenKappa. Reported beside kappa
 * because kappa collapses when a misbehavior is rare (the "kappa paradox") while AC1 does not.
 *
 * q is the table size, so include categories nobody used as zero rows and columns: a binary
 * metric is always a 2 x 2 table. Returns `null` when AC1 is undefined: no items, or q < 2.
 */
export function gwetAC1(table: number[][]): number | null {
  return gwetAC1Stats(table).ac1;
}

export function gwetAC1Stats(table: number[][]): GwetAC1Stats {
  parseInput(SquareTableSchema, table, "gwetAC1", "table");
  const q = table.length;
  const n = sum(table.map(sum));
  const empty = { n, categories: q, observedAgreement: null, expectedAgreement: null, ac1: null };
  if (n === 0) return empty;
  const pa = sum(table.map((row, i) => at(row, i))) / n;
  if (q < 2) return { ...empty, observedAgreement: pa };

  let chance = 0;
  for (let k = 0; k < q; k++) {
    const pi = (sum(at(table, k)) + sum(table.map((row) => at(row, k)))) / (2 * n);
    chance += pi * (1 - pi);
  }
  // Pe <= 1/q < 1 for q >= 2, so the denominator never vanishes.
  const pe = chance / (q - 1);
  return { n, categories: q, observedAgreement: pa, expectedAgreement: pe, ac1: (pa - pe) / (1 - pe) };
}
