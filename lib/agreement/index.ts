/**
 * Agreement statistics for the human agreement study (DESIGN.md section 4, issue 7).
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
