import { at, sum } from "./numeric";
import { FleissCountsSchema } from "./schema";
import { parseInput } from "./validate";

/** Fleiss' kappa and its parts, named as in Fleiss (1971). `null` = undefined (see fleissKappa). */
export interface FleissKappaStats {
  subjects: number;
  /** Raters per subject (the same on every row, validated). */
  raters: number;
  /** Ratings per category over all subjects. */
  categoryTotals: number[];
  /** P-bar: mean share of agreeing rater pairs per subject. */
  observedAgreement: number | null;
  /** Pe-bar: sum of squared category proportions. */
  expectedAgreement: number | null;
  kappa: number | null;
}

/**
 * Fleiss' kappa for any number of categories and any fixed number (>= 2) of raters per subject.
 * `counts` is subjects x categories, each cell the number of raters who chose that category.
 *
 * Returns `null` when kappa is undefined: no subjects, or every rating in one category (Pe-bar = 1,
 * kappa = 0/0). Throws an INVALID_INPUT AppError on negative or fractional counts, rows with
 * different categories, or subjects with different numbers of raters: Fleiss' formula assumes a
 * fixed number of raters, and quietly reweighting would give a number no reference reproduces.
 * For missing ratings use krippendorffAlphaNominal.
 */
export function fleissKappa(counts: number[][]): number | null {
  return fleissKappaStats(counts).kappa;
}

export function fleissKappaStats(counts: number[][]): FleissKappaStats {
  parseInput(FleissCountsSchema, counts, "fleissKappa", "counts");
  const first = counts[0];
  if (first === undefined) {
    return {
      subjects: 0,
      raters: 0,
      categoryTotals: [],
      observedAgreement: null,
      expectedAgreement: null,
      kappa: null,
    };
  }
  const subjects = counts.length;
  const raters = sum(first);
  const categoryTotals = first.map((_, j) => sum(counts.map((row) => at(row, j))));

  const perSubject = counts.map((row) => (sum(row.map((c) => c * c)) - raters) / (raters * (raters - 1)));
  const observedAgreement = sum(perSubject) / subjects;
  const expectedAgreement = sum(categoryTotals.map((total) => (total / (subjects * raters)) ** 2));
  const kappa = expectedAgreement >= 1 ? null : (observedAgreement - expectedAgreement) / (1 - expectedAgreement);
  return { subjects, raters, categoryTotals, observedAgreement, expectedAgreement, kappa };
}
