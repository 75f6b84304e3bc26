import { AppError } from "@/lib/errors/app-error";
import type { Label } from "./categories";
import { confusionMatrix, percentAgreement } from "./confusion";
import { cohenKappa } from "./kappa";

export interface PairwiseKappa {
  /** Row indexes into `ratings`. */
  raterA: number;
  raterB: number;
  /** Units both raters labeled. */
  n: number;
  observedAgreement: number | null;
  kappa: number | null;
}

/**
 * Cohen's kappa for every pair of raters (a < b), each on the units both of them labeled.
 * `ratings` has the layout of krippendorffAlphaNominal: rows = raters, columns = units, null =
 * missing. Labels outside `categories` throw, as in confusionMatrix.
 */
export function pairwiseCohenKappas<L extends Label>(
  ratings: readonly (readonly (L | null)[])[],
  categories: readonly L[],
): PairwiseKappa[] {
  const units = ratings[0]?.length ?? 0;
  ratings.forEach((row, r) => {
    // A ragged row would silently pair unit i of one rater with unit i of a shifted list.
    if (row.length !== units) {
      throw new AppError(
        "INVALID_INPUT",
        `pairwiseCohenKappas: ratings[${r}] has ${row.length} units, ratings[0] has ${units}`,
      );
    }
  });

  const results: PairwiseKappa[] = [];
  ratings.forEach((labelsA, a) => {
    ratings.forEach((labelsB, b) => {
      if (b <= a) return;
      const pairs: [L, L][] = [];
      labelsA.forEach((labelA, u) => {
        const labelB = labelsB[u] ?? null;
        if (labelA !== null && labelB !== null) pairs.push([labelA, labelB]);
      });
      const table = confusionMatrix(pairs, categories);
      results.push({
        raterA: a,
        raterB: b,
        n: pairs.length,
        observedAgreement: percentAgreement(table),
        kappa: cohenKappa(table),
      });
    });
  });
  return results;
}
