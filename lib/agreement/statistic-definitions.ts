/**
 * The agreement export's manifest says what every number means (lib/agreement/export.ts). Kept
 * beside the code it describes: change a rule in item-majority.ts or report-*.ts, change it here.
 */
/** What each number means, in words precise enough to recompute it. */
export const STATISTIC_DEFINITIONS: { name: string; definition: string }[] = [
  {
    name: "applicable metrics",
    definition:
      "An item asks about a metric unless the set's rule judge said not_applicable for it; a run the rule judge never judged asks about all eleven.",
  },
  {
    name: "labels",
    definition:
      "Only labels of items the annotator submitted. cannot_tell is an abstention: counted, never a vote, and missing in every statistic.",
  },
  {
    name: "human majority",
    definition:
      "Strict plurality of the violated / not_violated votes of an item and metric; a tie or no votes gives no majority. Kinds: unanimous, split (e.g. 2-1), tie, empty.",
  },
  {
    name: "reference",
    definition:
      "The adjudication (an admin's final label) if any, else the human majority. Items without a reference are left out of every judge statistic.",
  },
  {
    name: "judge accuracy",
    definition:
      "Share of items with a reference and a decided (violated / not_violated) judge verdict where the verdict equals the reference; not_applicable, invalid and missing verdicts are counted as undecided and left out. Interval: Wilson score, 95% (z = 1.959963984540054), no continuity correction.",
  },
  {
    name: "Cohen's kappa (judge)",
    definition:
      "Cohen's kappa of the 2 x 2 table reference (rows: violated, not_violated) x judge (columns, same order). null when undefined (no items, or chance agreement 1).",
  },
  {
    name: "Gwet's AC1 (judge)",
    definition: "Gwet's AC1 (2008) of the same 2 x 2 table, q = 2 categories.",
  },
  {
    name: "Fleiss' kappa",
    definition:
      "Fleiss (1971) over the items where exactly k (annotators per item) annotators voted violated / not_violated.",
  },
  {
    name: "Krippendorff's alpha",
    definition:
      "Nominal alpha over all votes: raters = the set's annotators, units = items, cannot_tell and unlabeled = missing; units with fewer than two votes drop out.",
  },
  {
    name: "pairwise kappa",
    definition: "Cohen's kappa of each pair of annotators over the items both voted on.",
  },
  {
    name: "macro average",
    definition:
      "Mean over the metrics where the statistic is defined. Judges' macro averages get a percentile bootstrap interval: items (runs) resampled with replacement, mulberry32 seeded with the manifest's bootstrap seed, R type-7 quantiles at (1 - level)/2 and (1 + level)/2; resamples where no metric defines the statistic are left out.",
  },
  {
    name: "flips",
    definition:
      "For two judges, items with a reference where exactly one is right (decided and equal to the reference): toward = the second judge is right, away = the first is. p: exact two-sided McNemar test of away vs toward.",
  },
  {
    name: "annotator quality",
    definition:
      "Per annotator, share of their votes equal to the strict majority of the other annotators' votes on the same item and metric (items where the others have no majority are left out); Wilson 95% interval.",
  },
];
