import { sum } from "./numeric";
import { ReliabilityDataSchema, type ReliabilityValue } from "./schema";
import { parseInput } from "./validate";

/** Krippendorff's alpha and its parts. `null` = undefined (see krippendorffAlphaNominal). */
export interface KrippendorffAlphaStats {
  /** Units with at least two values (the only ones that carry pairing information). */
  units: number;
  /** n: values in those units. */
  pairableValues: number;
  /** Do: observed disagreement. */
  observedDisagreement: number | null;
  /** De: disagreement expected from the pooled values. */
  expectedDisagreement: number | null;
  alpha: number | null;
}

/**
 * Krippendorff's alpha for nominal data, via the coincidence matrix (Krippendorff 2011,
 * "Computing Krippendorff's Alpha-Reliability"). `data` rows are raters, columns are units,
 * `null` is a missing rating; units with fewer than two values are dropped, as the definition
 * requires. Values are compared with SameValueZero, so 1 and "1" are different categories.
 *
 * Returns `null` when alpha is undefined: no pairable values, or all pairable values equal
 * (De = 0). Throws an INVALID_INPUT AppError on ragged rows or values that are not a string, a
 * finite number or null.
 */
export function krippendorffAlphaNominal(data: (string | number | null)[][]): number | null {
  return krippendorffAlphaStats(data).alpha;
}

export function krippendorffAlphaStats(data: (string | number | null)[][]): KrippendorffAlphaStats {
  parseInput(ReliabilityDataSchema, data, "krippendorffAlphaNominal", "data");
  const unitCount = data[0]?.length ?? 0;
  const totals = new Map<ReliabilityValue, number>();
  let units = 0;
  let n = 0;
  // Sum over units of (ordered pairs with different values) / (m_u - 1): the off-diagonal mass of
  // the coincidence matrix, without building the matrix.
  let disagreeingPairs = 0;

  for (let u = 0; u < unitCount; u++) {
    const counts = new Map<ReliabilityValue, number>();
    for (const row of data) {
      const value = row[u] ?? null;
      if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const m = sum([...counts.values()]);
    if (m < 2) continue;
    units += 1;
    n += m;
    const sameValuePairs = sum([...counts.values()].map((c) => c * c));
    disagreeingPairs += (m * m - sameValuePairs) / (m - 1);
    for (const [value, c] of counts) totals.set(value, (totals.get(value) ?? 0) + c);
  }

  if (n === 0) {
    return { units, pairableValues: 0, observedDisagreement: null, expectedDisagreement: null, alpha: null };
  }
  const observedDisagreement = disagreeingPairs / n;
  const pooledSame = sum([...totals.values()].map((c) => c * c));
  const expectedDisagreement = (n * n - pooledSame) / (n * (n - 1));
  const alpha = expectedDisagreement === 0 ? null : 1 - observedDisagreement / expectedDisagreement;
  return { units, pairableValues: n, observedDisagreement, expectedDisagreement, alpha };
}
