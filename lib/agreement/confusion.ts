import { categoryIndex, positionOf, type Label } from "./categories";
import { at, sum } from "./numeric";
import { SquareTableSchema } from "./schema";
import { parseInput } from "./validate";

/**
 * Confusion matrix of paired labels: rows = the first label of each pair (rater A, e.g. the human
 * majority), columns = the second (rater B, e.g. the judge), both in `categories` order. Every
 * category gets a row and a column even if unused, which gwetAC1 needs (q = table size).
 */
export function confusionMatrix<L extends Label>(
  pairs: readonly (readonly [L, L])[],
  categories: readonly L[],
): number[][] {
  const index = categoryIndex(categories, "confusionMatrix");
  const table = categories.map(() => categories.map(() => 0));
  pairs.forEach(([a, b], i) => {
    const row = at(table, positionOf(index, a, "confusionMatrix", `pairs[${i}][0]`));
    const column = positionOf(index, b, "confusionMatrix", `pairs[${i}][1]`);
    row[column] = at(row, column) + 1;
  });
  return table;
}

/**
 * Subjects x categories counts for fleissKappa from each subject's labels (one entry per rater,
 * null = not rated, skipped).
 */
export function categoryCounts<L extends Label>(
  ratings: readonly (readonly (L | null)[])[],
  categories: readonly L[],
): number[][] {
  const index = categoryIndex(categories, "categoryCounts");
  return ratings.map((labels, s) => {
    const row = categories.map(() => 0);
    labels.forEach((label, r) => {
      if (label === null) return;
      const position = positionOf(index, label, "categoryCounts", `ratings[${s}][${r}]`);
      row[position] = at(row, position) + 1;
    });
    return row;
  });
}

/** Items on the diagonal and in total: the successes and n of judge accuracy's Wilson interval. */
export function agreementCounts(table: number[][]): { agreed: number; total: number } {
  parseInput(SquareTableSchema, table, "agreementCounts", "table");
  return { agreed: sum(table.map((row, i) => at(row, i))), total: sum(table.map(sum)) };
}

/**
 * Share of items on which the two raters agree, as a proportion in [0, 1] (not 0-100), or `null`
 * for an empty table. Judge accuracy vs the human majority is this on their confusion matrix.
 */
export function percentAgreement(table: number[][]): number | null {
  const { agreed, total } = agreementCounts(table);
  return total === 0 ? null : agreed / total;
}
