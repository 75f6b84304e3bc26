import { Z_95 } from "./intervals";
import { at, sum } from "./numeric";
import { CriticalValueSchema, SquareTableSchema } from "./schema";
import { parseInput } from "./validate";

/**
 * Cohen's kappa with the asymptotic standard errors of Fleiss, Cohen & Everitt (1969), the ones
 * SAS PROC FREQ and most textbooks print. Undefined quantities are `null` (the convention of this
 * folder): no items, or chance agreement of 1 (every rating in one category), where kappa is 0/0.
 */
export interface CohenKappaStats {
  /** Number of rated items (the table total). */
  n: number;
  /** Po: share of items on the diagonal. */
  observedAgreement: number | null;
  /** Pe: agreement expected from the two raters' marginals alone. */
  expectedAgreement: number | null;
  kappa: number | null;
  /** Asymptotic SE of kappa, used for the interval. */
  standardError: number | null;
  /** SE under the null hypothesis kappa = 0, used for the test statistic. */
  standardErrorNull: number | null;
  /** kappa / standardErrorNull. */
  zStatistic: number | null;
  /** kappa +- z * standardError (not clipped to [-1, 1], as published). */
  interval: [number, number] | null;
}

const EMPTY: CohenKappaStats = {
  n: 0,
  observedAgreement: null,
  expectedAgreement: null,
  kappa: null,
  standardError: null,
  standardErrorNull: null,
  zStatistic: null,
  interval: null,
};

/**
 * Cohen's kappa of a square confusion matrix (rater A rows x rater B columns). Returns `null` when
 * kappa is undefined (see cohenKappaStats); throws an INVALID_INPUT AppError on a non-square,
 * negative or fractional table.
 */
export function cohenKappa(table: number[][]): number | null {
  return cohenKappaStats(table).kappa;
}

export function cohenKappaStats(table: number[][], options: { z?: number } = {}): CohenKappaStats {
  parseInput(SquareTableSchema, table, "cohenKappa", "table");
  const z = parseInput(CriticalValueSchema, options.z ?? Z_95, "cohenKappa", "z");
  const k = table.length;
  const n = sum(table.map(sum));
  if (n === 0) return EMPTY;

  const p = table.map((row) => row.map((cell) => cell / n));
  const rows = p.map(sum);
  const cols = p.map((_, j) => sum(p.map((row) => at(row, j))));
  const po = sum(p.map((row, i) => at(row, i)));
  const pe = sum(rows.map((r, i) => r * at(cols, i)));
  if (pe >= 1) return { ...EMPTY, n, observedAgreement: po, expectedAgreement: pe };

  const kappa = (po - pe) / (1 - pe);
  const scale = n * (1 - pe) ** 2;

  let diagonal = 0;
  let offDiagonal = 0;
  let nullTerm = 0;
  for (let i = 0; i < k; i++) {
    const ri = at(rows, i);
    const ci = at(cols, i);
    diagonal += at(at(p, i), i) * (1 - (ri + ci) * (1 - kappa)) ** 2;
    nullTerm += ri * ci * (ri + ci);
    for (let j = 0; j < k; j++) {
      if (i !== j) offDiagonal += at(at(p, i), j) * (ci + at(rows, j)) ** 2;
    }
  }
  const variance = (diagonal + (1 - kappa) ** 2 * offDiagonal - (kappa - pe * (1 - kappa)) ** 2) / scale;
  // Both variances are differences of nearly equal sums near perfect agreement; clamp the
  // rounding noise instead of returning NaN from a tiny negative.
  const standardError = Math.sqrt(Math.max(0, variance));
  const standardErrorNull = Math.sqrt(Math.max(0, (pe + pe * pe - nullTerm) / scale));

  return {
    n,
    observedAgreement: po,
    expectedAgreement: pe,
    kappa,
    standardError,
    standardErrorNull,
    // The null SE is 0 e.g. when the raters never use a common category (Pe = 0).
    zStatistic: standardErrorNull > 0 ? kappa / standardErrorNull : null,
    interval: [kappa - z * standardError, kappa + z * standardError],
  };
}
