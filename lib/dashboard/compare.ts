/**
 * Two agent configurations side by side on the instances both ran (the latest run of each on
 * each instance): per-metric rates on the pairs both were judged on, the difference, and an
 * exact McNemar test on the discordant pairs; plus the instances where their verdicts differ.
 */
import { mcnemarExact } from "@/lib/agreement";
import { METRIC_IDS, metricBit, metricsInMask, type MetricId } from "@/lib/metrics/catalog";

export interface PairedRuns {
  instanceId: string;
  runA: string;
  runB: string;
  violatedA: number;
  decidedA: number;
  violatedB: number;
  decidedB: number;
  /** runs.task_completed of each run (1, 0, or null when not known). */
  taskA?: number | null;
  taskB?: number | null;
}

/** A rate of A and B on paired instances: its difference and McNemar's test on the discordant pairs. */
interface PairedRate {
  pairs: number;
  rateA: number | null;
  rateB: number | null;
  /** rateB - rateA. */
  delta: number | null;
  /** Discordant pairs: only A counted, only B counted. */
  onlyA: number;
  onlyB: number;
  pValue: number | null;
}

/** Task completion (pass@1) of A and B on the instances where both runs' completion is known; positive delta: B completes more. */
export interface CompareTaskRow extends PairedRate {
  completedA: number;
  completedB: number;
}

/** One metric on the instances where both runs were decided on it; negative delta: B misbehaves less. */
export interface CompareMetricRow extends PairedRate {
  metric: MetricId;
  violatedA: number;
  violatedB: number;
}

export interface DifferingInstance {
  instanceId: string;
  runA: string;
  runB: string;
  onlyA: MetricId[];
  onlyB: MetricId[];
}

export interface Comparison {
  pairs: number;
  metrics: CompareMetricRow[];
  task: CompareTaskRow;
  differing: DifferingInstance[];
}

export function compareConfigurations(paired: readonly PairedRuns[]): Comparison {
  const metrics = METRIC_IDS.map((metric): CompareMetricRow => {
    const bit = metricBit(metric);
    let pairs = 0;
    let violatedA = 0;
    let violatedB = 0;
    let onlyA = 0;
    let onlyB = 0;
    for (const p of paired) {
      if ((p.decidedA & bit) === 0 || (p.decidedB & bit) === 0) continue;
      pairs += 1;
      const a = (p.violatedA & bit) !== 0;
      const b = (p.violatedB & bit) !== 0;
      if (a) violatedA += 1;
      if (b) violatedB += 1;
      if (a && !b) onlyA += 1;
      if (b && !a) onlyB += 1;
    }
    const rateA = pairs === 0 ? null : violatedA / pairs;
    const rateB = pairs === 0 ? null : violatedB / pairs;
    return {
      metric,
      pairs,
      violatedA,
      violatedB,
      rateA,
      rateB,
      delta: rateA === null || rateB === null ? null : rateB - rateA,
      onlyA,
      onlyB,
      pValue: pairs === 0 ? null : mcnemarExact(onlyA, onlyB).pValue,
    };
  });
  const differing = paired.flatMap((p) => {
    const both = p.decidedA & p.decidedB;
    const onlyA = metricsInMask(p.violatedA & ~p.violatedB & both);
    const onlyB = metricsInMask(p.violatedB & ~p.violatedA & both);
    return onlyA.length + onlyB.length === 0
      ? []
      : [{ instanceId: p.instanceId, runA: p.runA, runB: p.runB, onlyA, onlyB }];
  });
  return { pairs: paired.length, metrics, task: compareTask(paired), differing };
}

function compareTask(paired: readonly PairedRuns[]): CompareTaskRow {
  const known = paired.filter((p) => p.taskA != null && p.taskB != null);
  const completedA = known.filter((p) => p.taskA === 1).length;
  const completedB = known.filter((p) => p.taskB === 1).length;
  const onlyA = known.filter((p) => p.taskA === 1 && p.taskB !== 1).length;
  const onlyB = known.filter((p) => p.taskB === 1 && p.taskA !== 1).length;
  const rateA = known.length === 0 ? null : completedA / known.length;
  const rateB = known.length === 0 ? null : completedB / known.length;
  return {
    pairs: known.length,
    completedA,
    completedB,
    rateA,
    rateB,
    delta: rateA === null || rateB === null ? null : rateB - rateA,
    onlyA,
    onlyB,
    pValue: known.length === 0 ? null : mcnemarExact(onlyA, onlyB).pValue,
  };
}

/** The two configurations to compare: the ones asked for, else the first two with judged runs. */
export function comparedPair(
  configIds: readonly string[],
  asked: { a?: string; b?: string },
): { a: string | undefined; b: string | undefined } {
  const a = asked.a ?? configIds[0];
  return { a, b: asked.b ?? configIds.find((id) => id !== a) };
}
