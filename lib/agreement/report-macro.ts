/**
 * Macro averages over metrics, with a percentile bootstrap interval over items for the judges.
 *
 * The unit resampled is the item (a run), not the (item, metric) cell: the metrics of one run are
 * labeled together by the same people, so they are not independent, and resampling whole runs
 * keeps that dependence. Each resample's value is the mean of the per-metric statistics defined on
 * it; resamples where none is defined are left out, as bootstrap.ts does.
 *
 * Speed: 2000 resamples x judges x metrics x three statistics. Rebuilding confusion tables from
 * the cells on every resample took seconds, so each item's contribution to every (judge, metric)
 * table is precomputed once and a resample only adds them up; one pass of `bootstrap` serves all
 * the judges' statistics (the same resamples for every one of them).
 *
 * The annotators' Fleiss' kappa and alpha are averaged without an interval: each costs ~0.1 ms per
 * metric and resample (they validate every rating), seconds per report, and their per-metric
 * values are the human ceiling the page shows anyway.
 */
import type { MetricId } from "@/lib/metrics/catalog";
import { gwetAC1 } from "./ac1";
import { bootstrap, quantile } from "./bootstrap";
import type { Cell } from "./item-majority";
import { cohenKappa } from "./kappa";
import type { ReportInput } from "./report-input";
import type { JudgeMacro, MacroReport, MacroStat, MetricReport } from "./report-types";

type JudgeStatistic = "accuracy" | "kappa" | "ac1";

export interface BootstrapSettings {
  seed: number;
  iterations: number;
  level: number;
}

/** Mean of the defined values (null when none is) and how many there were. */
function meanOfDefined(values: readonly (number | null)[]): { value: number | null; metrics: number } {
  const defined = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (defined.length === 0) return { value: null, metrics: 0 };
  return { value: defined.reduce((a, b) => a + b, 0) / defined.length, metrics: defined.length };
}

/** Percentile interval of the defined replicate values, as bootstrap.ts computes it. */
function percentileInterval(values: number[], level: number): [number, number] | null {
  if (values.length === 0) return null;
  values.sort((x, y) => x - y);
  return [quantile(values, (1 - level) / 2), quantile(values, (1 + level) / 2)];
}

/**
 * `compute` memoized on the 2 x 2 table [[a, b], [c, d]], entries at most `limit`. Resampled
 * tables repeat a lot (violations are rare, so most tables differ only in d).
 */
function memoized(compute: (table: number[][]) => number | null, limit: number) {
  const memo = new Map<number, number | null>();
  const base = limit + 1;
  // A numeric key is exact while base^4 stays below 2^53 (up to ~9,000 items); past that, no memo.
  const usable = base ** 4 < Number.MAX_SAFE_INTEGER;
  return (a: number, b: number, c: number, d: number): number | null => {
    const key = usable ? ((a * base + b) * base + c) * base + d : -1;
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    const value = compute([
      [a, b],
      [c, d],
    ]);
    if (usable) memo.set(key, value);
    return value;
  };
}

type Intervals = Record<JudgeStatistic, [number, number] | null>;

function judgeBootstrap(
  byMetric: ReadonlyMap<MetricId, Cell[]>,
  input: ReportInput,
  settings: BootstrapSettings,
): Intervals[] {
  const metrics = [...byMetric.keys()];
  const judges = input.judges.map((judge) => judge.id);
  const M = metrics.length;
  // Slot of (judge j, metric m, table cell c): (j * M + m) * 4 + c, cells a b / c d row by row.
  const slotLists: number[][] = input.items.map(() => []);
  metrics.forEach((metric, m) => {
    for (const cell of byMetric.get(metric) ?? []) {
      if (cell.reference === null) continue;
      judges.forEach((judgeId, j) => {
        const verdict = cell.verdicts.get(judgeId);
        if (verdict !== "violated" && verdict !== "not_violated") return;
        const c = (cell.reference === "violated" ? 0 : 2) + (verdict === "violated" ? 0 : 1);
        slotLists[cell.item]?.push((j * M + m) * 4 + c);
      });
    }
  });
  const slots = slotLists.map((list) => Int32Array.from(list));
  const counts = new Int32Array(judges.length * M * 4);
  const multiplicity = new Int32Array(input.items.length);
  const kappa = memoized(cohenKappa, input.items.length);
  const ac1 = memoized(gwetAC1, input.items.length);
  const replicates = judges.map(() => ({ accuracy: [] as number[], kappa: [] as number[], ac1: [] as number[] }));

  // The tight loop, so plain loops over typed arrays.
  const collect = (sample: number[]): null => {
    counts.fill(0);
    multiplicity.fill(0);
    for (let s = 0; s < sample.length; s++) multiplicity[sample[s] as number]! += 1;
    for (let i = 0; i < slots.length; i++) {
      const w = multiplicity[i] as number;
      if (w === 0) continue;
      const itemSlots = slots[i] as Int32Array;
      for (let x = 0; x < itemSlots.length; x++) counts[itemSlots[x] as number]! += w;
    }
    for (let j = 0; j < judges.length; j++) {
      const sums = { accuracy: 0, kappa: 0, ac1: 0 };
      const defined = { accuracy: 0, kappa: 0, ac1: 0 };
      for (let m = 0; m < M; m++) {
        const base = (j * M + m) * 4;
        const a = counts[base] ?? 0;
        const b = counts[base + 1] ?? 0;
        const c = counts[base + 2] ?? 0;
        const d = counts[base + 3] ?? 0;
        const total = a + b + c + d;
        // An empty table defines none of the three (cohenKappa and gwetAC1 are null for n = 0).
        if (total === 0) continue;
        sums.accuracy += (a + d) / total;
        defined.accuracy += 1;
        const k = kappa(a, b, c, d);
        if (k !== null) {
          sums.kappa += k;
          defined.kappa += 1;
        }
        const g = ac1(a, b, c, d);
        if (g !== null) {
          sums.ac1 += g;
          defined.ac1 += 1;
        }
      }
      const r = replicates[j];
      if (defined.accuracy > 0) r?.accuracy.push(sums.accuracy / defined.accuracy);
      if (defined.kappa > 0) r?.kappa.push(sums.kappa / defined.kappa);
      if (defined.ac1 > 0) r?.ac1.push(sums.ac1 / defined.ac1);
    }
    // The replicates are collected above; bootstrap's own summary of this statistic is unused.
    return null;
  };
  bootstrap(
    input.items.map((_, i) => i),
    collect,
    settings,
  );
  return replicates.map((r) => ({
    accuracy: percentileInterval(r.accuracy, settings.level),
    kappa: percentileInterval(r.kappa, settings.level),
    ac1: percentileInterval(r.ac1, settings.level),
  }));
}

/**
 * Macro averages from the per-metric reports (so the point values are exactly the means of what
 * the metric table shows) and bootstrap intervals for the judges' ones.
 */
export function macroReport(
  metrics: readonly MetricReport[],
  byMetric: ReadonlyMap<MetricId, Cell[]>,
  input: ReportInput,
  settings: BootstrapSettings,
): MacroReport {
  const intervals = judgeBootstrap(byMetric, input, settings);
  const judges: JudgeMacro[] = input.judges.map((judge, j) => {
    const stat = (statistic: JudgeStatistic): MacroStat => ({
      ...meanOfDefined(metrics.map((metric) => metric.judges[j]?.[statistic] ?? null)),
      interval: intervals[j]?.[statistic] ?? null,
    });
    return { judgeId: judge.id, accuracy: stat("accuracy"), kappa: stat("kappa"), ac1: stat("ac1") };
  });
  return {
    judges,
    humans: {
      fleissKappa: meanOfDefined(metrics.map((metric) => metric.humans.fleissKappa)),
      alpha: meanOfDefined(metrics.map((metric) => metric.humans.alpha)),
    },
  };
}
