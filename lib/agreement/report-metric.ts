/**
 * The per-metric statistics of the agreement report, on a list of cells (one metric's items). The
 * macro bootstrap calls the same functions on resampled lists, so the point estimate and its
 * interval can never be computed two different ways.
 */
import { gwetAC1 } from "./ac1";
import { krippendorffAlphaStats } from "./alpha";
import { agreementCounts, categoryCounts, confusionMatrix, percentAgreement } from "./confusion";
import { fleissKappa } from "./fleiss";
import { wilsonInterval } from "./intervals";
import type { Cell } from "./item-majority";
import { cohenKappa } from "./kappa";
import { pairwiseCohenKappas } from "./pairwise";
import type { ReportAnnotator } from "./report-input";
import { REPORT_CATEGORIES, type HumanAgreement, type JudgeMetricStats } from "./report-types";
import type { BinaryLabel } from "./study-schema";

function isDecided(value: string | undefined): value is BinaryLabel {
  return value === "violated" || value === "not_violated";
}

/** Human reference (rows) x judge (columns) over the cells with both; and how many lacked a verdict. */
export function judgeTable(cells: readonly Cell[], judgeId: number): { table: number[][]; undecided: number } {
  const pairs: [BinaryLabel, BinaryLabel][] = [];
  let undecided = 0;
  for (const cell of cells) {
    if (cell.reference === null) continue;
    const verdict = cell.verdicts.get(judgeId);
    if (isDecided(verdict)) pairs.push([cell.reference, verdict]);
    else undecided += 1;
  }
  return { table: confusionMatrix(pairs, REPORT_CATEGORIES), undecided };
}

export function judgeStats(cells: readonly Cell[], judgeId: number): JudgeMetricStats {
  const { table, undecided } = judgeTable(cells, judgeId);
  const { agreed, total } = agreementCounts(table);
  return {
    judgeId,
    n: total,
    agreed,
    accuracy: percentAgreement(table),
    interval: total === 0 ? null : wilsonInterval(agreed, total),
    kappa: cohenKappa(table),
    ac1: gwetAC1(table),
    confusion: table,
    undecided,
  };
}

/** Fleiss' kappa over the cells where exactly k annotators voted (its formula needs a fixed k). */
export function fleissOf(cells: readonly Cell[], k: number): { kappa: number | null; items: number } {
  const full = cells.filter((cell) => cell.ratings.filter((r) => r !== null).length === k);
  if (k < 2 || full.length === 0) return { kappa: null, items: full.length };
  return {
    kappa: fleissKappa(
      categoryCounts(
        full.map((cell) => cell.ratings),
        REPORT_CATEGORIES,
      ),
    ),
    items: full.length,
  };
}

/** Rows = annotators, columns = cells: the layout of krippendorffAlphaNominal and pairwiseCohenKappas. */
function ratingRows(cells: readonly Cell[], raters: number): (BinaryLabel | null)[][] {
  return Array.from({ length: raters }, (_, r) => cells.map((cell) => cell.ratings[r] ?? null));
}

export function alphaOf(cells: readonly Cell[], raters: number): { alpha: number | null; units: number } {
  const stats = krippendorffAlphaStats(ratingRows(cells, raters));
  return { alpha: stats.alpha, units: stats.units };
}

export function humanAgreement(
  cells: readonly Cell[],
  annotators: readonly ReportAnnotator[],
  k: number,
): HumanAgreement {
  const fleiss = fleissOf(cells, k);
  const alpha = alphaOf(cells, annotators.length);
  const pairwise = pairwiseCohenKappas(ratingRows(cells, annotators.length), REPORT_CATEGORIES).map((pair) => ({
    userA: annotators[pair.raterA]?.userId ?? -1,
    userB: annotators[pair.raterB]?.userId ?? -1,
    n: pair.n,
    observedAgreement: pair.observedAgreement,
    kappa: pair.kappa,
  }));
  return {
    fleissKappa: fleiss.kappa,
    fleissItems: fleiss.items,
    alpha: alpha.alpha,
    alphaUnits: alpha.units,
    pairwise,
  };
}
