/**
 * The agreement report as the report page, the export and the CLIs receive it.
 * Plain data, serializable as is. Every statistic that is undefined for its data is `null`.
 * Confusion matrices are `REPORT_CATEGORIES` x `REPORT_CATEGORIES`: rows the human reference,
 * columns the judge.
 */
import type { MetricId, VerdictValue } from "@/lib/metrics/catalog";
import type { MajorityKind } from "./majority-vote";
import type { ReportAnnotator, ReportJudge, ReportSet } from "./report-input";
import type { BinaryLabel } from "./study-schema";

export const REPORT_CATEGORIES = ["violated", "not_violated"] as const satisfies readonly BinaryLabel[];

export interface JudgeMetricStats {
  judgeId: number;
  /** Items with a human reference and a decided (violated / not violated) verdict of this judge. */
  n: number;
  /** Of those, items where the judge matches the reference. */
  agreed: number;
  /** agreed / n, a proportion in [0, 1]. */
  accuracy: number | null;
  /** Wilson score interval of the accuracy (95% by default); null when n = 0. */
  interval: [number, number] | null;
  /** Cohen's kappa, judge vs the human reference. */
  kappa: number | null;
  /** Gwet's AC1, judge vs the human reference. */
  ac1: number | null;
  confusion: number[][];
  /** Items with a human reference where this judge said not_applicable or invalid, or nothing. */
  undecided: number;
}

export interface PairKappa {
  userA: number;
  userB: number;
  /** Items both voted on (cannot_tell is no vote). */
  n: number;
  observedAgreement: number | null;
  kappa: number | null;
}

/** Among the annotators: the human ceiling the judges are measured against. */
export interface HumanAgreement {
  /** Fleiss' kappa over the items where all k annotators voted. */
  fleissKappa: number | null;
  fleissItems: number;
  /** Krippendorff's alpha (nominal) over every vote; items with fewer than two votes drop out. */
  alpha: number | null;
  alphaUnits: number;
  pairwise: PairKappa[];
}

export interface MetricReport {
  metric: MetricId;
  /** Items that ask about this metric. */
  items: number;
  /** How the votes fell (before adjudication): unanimous, a split (2-1), a tie, no votes. */
  votes: Record<MajorityKind, number>;
  adjudicated: number;
  /** Items with a reference label (a majority or an adjudication). */
  decided: number;
  /** cannot_tell labels given. */
  cannotTell: number;
  /** In report.judges order. */
  judges: JudgeMetricStats[];
  humans: HumanAgreement;
}

/** A mean over metrics and its percentile bootstrap interval over items. */
export interface MacroStat {
  /** Mean of the per-metric values that are defined. */
  value: number | null;
  interval: [number, number] | null;
  /** Metrics with a defined value (the denominator of the mean). */
  metrics: number;
}

export interface JudgeMacro {
  judgeId: number;
  accuracy: MacroStat;
  kappa: MacroStat;
  ac1: MacroStat;
}

/** A mean over metrics without an interval (see lib/agreement/report-macro.ts for why). */
export interface MacroMean {
  value: number | null;
  metrics: number;
}

export interface MacroReport {
  /** In report.judges order. */
  judges: JudgeMacro[];
  humans: { fleissKappa: MacroMean; alpha: MacroMean };
}

export type FlipDirection = "toward" | "away";

export interface FlipItem {
  runId: string;
  position: number;
  metric: MetricId;
  reference: BinaryLabel;
  base: VerdictValue | null;
  candidate: VerdictValue | null;
  /** toward: the candidate matches the humans where the base did not; away: the reverse. */
  direction: FlipDirection;
}

/** What changes from one judge to another (e.g. prompt v1 -> v2) measured against the humans. */
export interface JudgeFlips {
  baseJudgeId: number;
  candidateJudgeId: number;
  toward: number;
  away: number;
  /** Exact two-sided McNemar test of toward vs away (1 when nothing flipped). */
  pValue: number;
  perMetric: { metric: MetricId; toward: number; away: number }[];
  items: FlipItem[];
}

export interface AgreementRate {
  n: number;
  agreed: number;
  rate: number | null;
  interval: [number, number] | null;
}

/** One annotator against the majority of the others, over every item both they and the others voted on. */
export interface AnnotatorQuality extends AgreementRate {
  userId: number;
  username: string;
  /** Labels given, cannot_tell included. */
  labels: number;
  cannotTell: number;
  perMetric: ({ metric: MetricId } & AgreementRate)[];
}

export interface ReportOptions {
  /** Bootstrap seed; default the set's seed. */
  seed?: number;
  /** Bootstrap resamples (default 2000). */
  iterations?: number;
  /** Level of the bootstrap intervals (default 0.95); Wilson intervals are always 95%. */
  level?: number;
}

export interface AgreementReport {
  set: ReportSet;
  bootstrap: { seed: number; iterations: number; level: number };
  categories: typeof REPORT_CATEGORIES;
  judges: ReportJudge[];
  annotators: ReportAnnotator[];
  /** Metrics at least one item asks about, catalog order. */
  metrics: MetricReport[];
  macro: MacroReport;
  /** Every pair of judges, base before candidate in report.judges order. */
  flips: JudgeFlips[];
  annotatorQuality: AnnotatorQuality[];
}
