/**
 * Agreement statistics for the human agreement study (README.md, "The agreement study").
 * Conventions: a statistic that is undefined for its input (no items, a single category, ...)
 * is `null`, never NaN; malformed input (negative or fractional counts, non-square or ragged
 * tables, unknown labels) throws an INVALID_INPUT AppError naming the function and the cell.
 */
export { cohenKappa, cohenKappaStats, type CohenKappaStats } from "./kappa";
export { fleissKappa, fleissKappaStats, type FleissKappaStats } from "./fleiss";
export { krippendorffAlphaNominal, krippendorffAlphaStats, type KrippendorffAlphaStats } from "./alpha";
export { gwetAC1, gwetAC1Stats, type GwetAC1Stats } from "./ac1";
export { wilsonInterval, Z_95 } from "./intervals";
export { bootstrap, bootstrapInterval, quantile, type BootstrapOptions, type BootstrapResult } from "./bootstrap";
export { mcnemarExact, type McNemarResult } from "./mcnemar";
export { agreementCounts, categoryCounts, confusionMatrix, percentAgreement } from "./confusion";
export { pairwiseCohenKappas, type PairwiseKappa } from "./pairwise";
export { majorityVote, type MajorityKind, type MajorityVote } from "./majority-vote";
export type { Label } from "./categories";
export type { ReliabilityValue } from "./schema";

// The study itself: sampling, the human majority, the report and its export.
export { allocateProportional, assignAnnotators, stratifiedSample, stratumOf } from "./sampling";
export type { AssignedItem, Sample, SampleCandidate, SampledItem, SampleOptions } from "./sampling";
export { applicableMetrics } from "./applicability";
export { humanMajorities, type ItemMetricMajority } from "./item-majority";
export { computeAgreementReport, DEFAULT_BOOTSTRAP_ITERATIONS } from "./report";
export type * from "./report-types";
export { REPORT_CATEGORIES } from "./report-types";
export { ReportInputSchema, type ReportInput } from "./report-input";
export {
  agreementManifest,
  exportLabels,
  exportReport,
  labelRows,
  manifestBody,
  parseLabelsExport,
  reportRows,
  STATISTIC_DEFINITIONS,
  type AgreementManifest,
  type ExportFile,
  type ExportOptions,
} from "./export";
export * from "./study-schema";
