/**
 * The agreement report (README.md, "The agreement study"), a pure function of the set's items,
 * the submitted labels, the adjudications and the judges' verdicts (lib/agreement/report-input.ts).
 * The human rules (cannot_tell, ties, adjudication) are in item-majority.ts; the statistics are
 * the ones of this folder, never re-derived here. The same input and options always give the same
 * report, bootstrap intervals included.
 */
import { annotatorQuality } from "./annotator-quality";
import { indexCells } from "./item-majority";
import type { MajorityKind } from "./majority-vote";
import { ReportInputSchema, type ReportInput } from "./report-input";
import { judgeFlips } from "./report-flips";
import { macroReport } from "./report-macro";
import { humanAgreement, judgeStats } from "./report-metric";
import { REPORT_CATEGORIES, type AgreementReport, type JudgeFlips, type ReportOptions } from "./report-types";
import { parseInput } from "./validate";

export const DEFAULT_BOOTSTRAP_ITERATIONS = 2000;

export function computeAgreementReport(input: ReportInput, options: ReportOptions = {}): AgreementReport {
  const parsed = parseInput(ReportInputSchema, input, "computeAgreementReport", "input");
  const settings = {
    seed: options.seed ?? parsed.set.seed,
    iterations: options.iterations ?? DEFAULT_BOOTSTRAP_ITERATIONS,
    level: options.level ?? 0.95,
  };
  const byMetric = indexCells(parsed);
  const k = parsed.set.annotatorsPerItem;

  const metrics = [...byMetric].map(([metric, cells]) => {
    const votes: Record<MajorityKind, number> = { unanimous: 0, split: 0, tie: 0, empty: 0 };
    for (const cell of cells) votes[cell.kind] += 1;
    return {
      metric,
      items: cells.length,
      votes,
      adjudicated: cells.filter((cell) => cell.adjudicated).length,
      decided: cells.filter((cell) => cell.reference !== null).length,
      cannotTell: cells.reduce((sum, cell) => sum + cell.votes.cannotTell, 0),
      judges: parsed.judges.map((judge) => judgeStats(cells, judge.id)),
      humans: humanAgreement(cells, parsed.annotators, k),
    };
  });

  const flips: JudgeFlips[] = [];
  parsed.judges.forEach((base, a) => {
    for (const candidate of parsed.judges.slice(a + 1)) flips.push(judgeFlips(byMetric, base.id, candidate.id));
  });

  return {
    set: parsed.set,
    bootstrap: settings,
    categories: REPORT_CATEGORIES,
    judges: parsed.judges,
    annotators: parsed.annotators,
    metrics,
    macro: macroReport(metrics, byMetric, parsed, settings),
    flips,
    annotatorQuality: annotatorQuality(byMetric, parsed),
  };
}
