/**
 * The overview's paper-style tables and charts, prepared from per-group counts: one table per task
 * family, rows = framework x model x mitigation arm, columns = the 11 metrics plus task completion, each cell the
 * % of decided runs that violated the metric with its counts and a Wilson 95% interval.
 * "Not applicable" and invalid verdicts are never in the denominator.
 */
import { wilsonInterval } from "@/lib/agreement";
import { CATALOG_FAMILY_IDS, FAMILY_LABELS, type CatalogFamilyId } from "@/lib/benchmark/subtasks";
import { MITIGATIONS, type Mitigation } from "@/lib/codekit/arms";
import { METRIC_IDS, METRICS, type MetricId } from "@/lib/metrics/catalog";
import { withArm } from "./format";

export interface MetricCount {
  violated: number;
  decided: number;
}

/** Counts for one (family, framework, model, arm) group, as the overview query returns them. */
export interface OverviewGroup {
  family: CatalogFamilyId;
  framework: string;
  model: string;
  mitigation: Mitigation;
  runs: number;
  metrics: Record<MetricId, MetricCount>;
  /** Runs whose task completion is known, and how many completed. */
  task: { completed: number; known: number };
}

export interface RateCell {
  /** Numerator: violated runs (or completed runs for task completion). */
  count: number;
  /** Denominator: decided runs; 0 means no data (shown as "–"). */
  of: number;
  rate: number | null;
  interval: [number, number] | null;
  /** 0..1 colour intensity for the heat map. */
  heat: number;
}

export interface OverviewRow {
  key: string;
  framework: string;
  model: string;
  mitigation: Mitigation;
  runs: number;
  cells: Record<MetricId, RateCell>;
  task: RateCell;
  /** Mean violation rate over the metrics with data: the paper's "average misbehavior". */
  average: number | null;
}

export interface OverviewTable {
  family: CatalogFamilyId;
  label: string;
  /** Metrics decided at least once in this family (others are not applicable to its subtasks). */
  metrics: MetricId[];
  rows: OverviewRow[];
}

/** Rates at or above this are the darkest colour: the study's worst cells sit around 30-50%. */
const HEAT_CEILING = 0.5;

export function rateCell(count: number, of: number, ceiling = HEAT_CEILING): RateCell {
  if (of === 0) return { count, of, rate: null, interval: null, heat: 0 };
  const rate = count / of;
  return { count, of, rate, interval: wilsonInterval(count, of), heat: Math.min(1, rate / ceiling) };
}

function emptyCounts(): Record<MetricId, MetricCount> {
  return Object.fromEntries(METRIC_IDS.map((m) => [m, { violated: 0, decided: 0 }])) as Record<MetricId, MetricCount>;
}

function rowOf(key: string, groups: OverviewGroup[]): OverviewRow {
  const { framework, model, mitigation } = groups[0]!;
  const counts = emptyCounts();
  let runs = 0;
  let completed = 0;
  let known = 0;
  for (const g of groups) {
    runs += g.runs;
    completed += g.task.completed;
    known += g.task.known;
    for (const m of METRIC_IDS) {
      counts[m].violated += g.metrics[m].violated;
      counts[m].decided += g.metrics[m].decided;
    }
  }
  const cells = Object.fromEntries(
    METRIC_IDS.map((m) => [m, rateCell(counts[m].violated, counts[m].decided)]),
  ) as Record<MetricId, RateCell>;
  return {
    key,
    framework,
    model,
    mitigation,
    runs,
    cells,
    task: rateCell(completed, known, 1),
    average: averageRate(cells),
  };
}

/** The paper's "average misbehavior": the mean of the metrics' violation rates, over the metrics with data. */
export function averageRate(cells: Record<MetricId, RateCell>): number | null {
  const rates = METRIC_IDS.map((m) => cells[m].rate).filter((r): r is number => r !== null);
  return rates.length === 0 ? null : rates.reduce((a, b) => a + b, 0) / rates.length;
}

function byConfiguration(groups: OverviewGroup[]): OverviewRow[] {
  const buckets = new Map<string, OverviewGroup[]>();
  for (const g of groups) {
    const key = `${g.framework}\u0000${g.model}\u0000${g.mitigation}`;
    buckets.set(key, [...(buckets.get(key) ?? []), g]);
  }
  // A configuration's arms sit together under it, in the ablation's order (none first).
  return [...buckets.entries()]
    .map(([key, list]) => rowOf(key, list))
    .sort(
      (a, b) =>
        a.framework.localeCompare(b.framework) ||
        a.model.localeCompare(b.model) ||
        MITIGATIONS.indexOf(a.mitigation) - MITIGATIONS.indexOf(b.mitigation),
    );
}

/** One table per family that has runs, in the catalog's family order. */
export function prepareOverviewTables(groups: OverviewGroup[]): OverviewTable[] {
  return CATALOG_FAMILY_IDS.flatMap((family) => {
    const inFamily = groups.filter((g) => g.family === family);
    if (inFamily.length === 0) return [];
    const rows = byConfiguration(inFamily);
    const metrics = METRIC_IDS.filter((m) => rows.some((r) => r.cells[m].of > 0));
    return [{ family, label: FAMILY_LABELS[family], metrics, rows }];
  });
}

export interface MetricChart {
  /** One entry per metric with data: `{ metric: label, [series]: rate in % }`. */
  data: Record<string, string | number | null>[];
  series: string[];
}

/** The chart series a group counts in: its framework with its arm (an arm is a different agent), or its model. */
function seriesOf(group: OverviewGroup, by: "framework" | "model"): string {
  return by === "framework" ? withArm(group.framework, group.mitigation) : group.model;
}

/** Violation rate per metric, one bar series per framework and arm (or per model), over all families. */
export function prepareMetricChart(groups: OverviewGroup[], by: "framework" | "model"): MetricChart {
  const series = [...new Set(groups.map((g) => seriesOf(g, by)))].sort();
  const data = METRICS.flatMap((metric) => {
    const entry: Record<string, string | number | null> = { metric: metric.label };
    let any = false;
    for (const name of series) {
      let violated = 0;
      let decided = 0;
      for (const g of groups) {
        if (seriesOf(g, by) !== name) continue;
        violated += g.metrics[metric.id].violated;
        decided += g.metrics[metric.id].decided;
      }
      entry[name] = decided === 0 ? null : Math.round((violated / decided) * 1000) / 10;
      any ||= decided > 0;
    }
    return any ? [entry] : [];
  });
  return { data, series };
}

/** Flat rows for CSV/JSON export: one line per (family, framework, model, arm, metric). */
export function overviewExportRows(tables: OverviewTable[]): Record<string, string | number | null>[] {
  return tables.flatMap((table) =>
    table.rows.flatMap((row) =>
      [...METRIC_IDS.map((m) => [m, row.cells[m]] as const), ["task_completion", row.task] as const].map(
        ([metric, cell]) => ({
          family: table.family,
          framework: row.framework,
          model: row.model,
          arm: row.mitigation,
          runs: row.runs,
          metric,
          count: cell.count,
          of: cell.of,
          rate: cell.rate,
          ci_low: cell.interval?.[0] ?? null,
          ci_high: cell.interval?.[1] ?? null,
        }),
      ),
    ),
  );
}
