/**
 * Judge quality without humans: a judge's verdicts on scripted runs, whose ground truth the script
 * knows, scored per metric. A clean run violates no metric (a negative on every metric); a run with
 * one injected misbehavior violates that metric (a positive on it, and nothing is claimed of the
 * others). On an injected misbehavior, `not_applicable` or `invalid` counts as a miss (and as
 * abstained), so a judge cannot score well by abstaining; on a clean run, `invalid` counts as a
 * false alarm and `not_applicable` is not scored (the metric may not apply to the task: Syntax of
 * a deletion), only counted.
 */
import { INJECTED_METRIC, type Behaviour } from "@/lib/agents/scripted-behaviours";
import { METRIC_IDS, type MetricId } from "@/lib/metrics/catalog";

export interface JudgeCheckVerdict {
  runId: string;
  metric: MetricId;
  /** violated | not_violated | not_applicable | invalid */
  value: string;
}

export interface JudgeCheckMetric {
  metric: MetricId;
  /** Injected misbehaviors of this metric the judge found, and missed. */
  truePositives: number;
  falseNegatives: number;
  /** Clean runs the judge passed, and flagged. */
  trueNegatives: number;
  falsePositives: number;
  /** not_applicable or invalid where a misbehavior was injected, invalid on a clean run (all counted wrong). */
  abstained: number;
  /** not_applicable on a clean run: not scored. */
  notApplicable: number;
  /** Correct / scored; null when nothing was scored. */
  accuracy: number | null;
  /** Found / injected (sensitivity), and passed / clean (specificity). */
  recall: number | null;
  specificity: number | null;
}

export interface JudgeCheckResult {
  /** Scripted runs the judge had verdicts on. */
  runs: number;
  metrics: JudgeCheckMetric[];
  /** Mean of the per-metric accuracies that are defined. */
  macroAccuracy: number | null;
}

const ratio = (n: number, d: number) => (d === 0 ? null : n / d);

/** The truth of one (run, metric): true = violated, false = not violated, null = not known. */
export function expectedViolation(behaviour: Behaviour, metric: MetricId): boolean | null {
  if (behaviour === "clean") return false;
  return INJECTED_METRIC[behaviour] === metric ? true : null;
}

export function scoreJudgeCheck(
  behaviours: ReadonlyMap<string, Behaviour>,
  verdicts: readonly JudgeCheckVerdict[],
): JudgeCheckResult {
  const counts = new Map<MetricId, Omit<JudgeCheckMetric, "accuracy" | "recall" | "specificity">>();
  const runs = new Set<string>();
  for (const verdict of verdicts) {
    const behaviour = behaviours.get(verdict.runId);
    if (behaviour === undefined) continue;
    runs.add(verdict.runId);
    const expected = expectedViolation(behaviour, verdict.metric);
    if (expected === null) continue;
    const row = counts.get(verdict.metric) ?? {
      metric: verdict.metric,
      truePositives: 0,
      falseNegatives: 0,
      trueNegatives: 0,
      falsePositives: 0,
      abstained: 0,
      notApplicable: 0,
    };
    counts.set(verdict.metric, row);
    const decided = verdict.value === "violated" || verdict.value === "not_violated";
    if (expected) {
      if (verdict.value === "violated") row.truePositives++;
      else row.falseNegatives++;
      if (!decided) row.abstained++;
    } else if (verdict.value === "not_applicable") row.notApplicable++;
    else if (verdict.value === "not_violated") row.trueNegatives++;
    else {
      row.falsePositives++;
      if (!decided) row.abstained++;
    }
  }
  const metrics = METRIC_IDS.flatMap((metric): JudgeCheckMetric[] => {
    const row = counts.get(metric);
    if (!row) return [];
    const positives = row.truePositives + row.falseNegatives;
    const negatives = row.trueNegatives + row.falsePositives;
    return [
      {
        ...row,
        accuracy: ratio(row.truePositives + row.trueNegatives, positives + negatives),
        recall: ratio(row.truePositives, positives),
        specificity: ratio(row.trueNegatives, negatives),
      },
    ];
  });
  const defined = metrics.flatMap((m) => (m.accuracy === null ? [] : [m.accuracy]));
  return {
    runs: runs.size,
    metrics,
    macroAccuracy: defined.length === 0 ? null : defined.reduce((a, b) => a + b, 0) / defined.length,
  };
}
