import { METRIC_IDS, type MetricId } from "@/lib/metrics/catalog";

/**
 * Which metrics an annotator is asked about for a run. The rule judge is the authority on
 * applicability: it says `not_applicable` where a metric cannot apply to the subtask (e.g.
 * Signature when no function was to be written). So a metric applies unless the rule judge said
 * `not_applicable`; a metric it left undecided (`invalid`) or did not score still applies. A run
 * the rule judge has not judged at all asks for all eleven metrics: humans must not lose a metric
 * because an evaluation has not run yet.
 *
 * `ruleVerdicts` are the rule judge's verdicts on the run; the result is in catalog order.
 */
export function applicableMetrics(ruleVerdicts: readonly { metric: string; value: string }[]): MetricId[] {
  if (ruleVerdicts.length === 0) return [...METRIC_IDS];
  const notApplicable = new Set(ruleVerdicts.filter((v) => v.value === "not_applicable").map((v) => v.metric));
  return METRIC_IDS.filter((metric) => !notApplicable.has(metric));
}
