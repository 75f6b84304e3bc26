/**
 * The overview's counts: one row per (family, framework, model, arm) for a benchmark, split and judge,
 * summed from metric_counts (run_judge_masks counted per combination and metric by triggers), so a
 * million runs are a few thousand rows read.
 */
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { EXTERNAL_BENCHMARK_SOURCE } from "./run-import";
import type { CatalogFamilyId } from "@/lib/benchmark/subtasks";
import { MITIGATIONS, type Mitigation } from "@/lib/codekit/arms";
import type { OverviewGroup } from "@/lib/dashboard/overview";
import { METRIC_IDS, METRICS, type MetricId } from "@/lib/metrics/catalog";
import type { Db } from "../client";
import * as t from "../schema";

export interface OverviewFilter {
  benchmarkId: string;
  judgeId: number;
  split: "eval" | "all";
  family?: CatalogFamilyId;
  subtaskId?: string;
  /** Only runs of configurations with this mitigation arm. */
  mitigation?: Mitigation;
}

const c = t.metricCounts;

/** The filter on metric_counts (one row per combination of what the overview groups and filters by, and metric). */
export function metricCountsFilter(filter: OverviewFilter): SQL | undefined {
  return and(
    eq(c.judgeId, filter.judgeId),
    eq(c.benchmarkId, filter.benchmarkId),
    filter.split === "eval" ? eq(c.inEvalSplit, true) : undefined,
    filter.family ? eq(c.family, filter.family) : undefined,
    filter.subtaskId ? eq(c.subtaskId, filter.subtaskId) : undefined,
    // The unary + keeps the arm a filter on the rows: as an equality constraint it made SQLite
    // sort the groups in a temporary B-tree instead of streaming them in key order.
    filter.mitigation ? sql`+${c.mitigation} = ${filter.mitigation}` : undefined,
  );
}

/**
 * The overview's query: per (family, framework, model, arm) and metric bit (-1: the runs and their
 * task completion), the runs, violated and decided, summed over metric_counts in its key order
 * (overview.test.ts checks the plan: no sort).
 */
export function overviewGroupsQuery(filter: OverviewFilter): SQL {
  return sql`
    SELECT ${c.family} AS family, ${c.framework} AS framework, ${c.model} AS model, ${c.mitigation} AS mitigation,
      ${c.bit} AS bit, sum(${c.runs}) AS runs, sum(${c.violated}) AS violated, sum(${c.decided}) AS decided
    FROM ${c} WHERE ${metricCountsFilter(filter)}
    GROUP BY ${c.family}, ${c.framework}, ${c.model}, ${c.mitigation}, ${c.bit}`;
}

const METRIC_OF_BIT = new Map(METRICS.map((m) => [m.bit, m.id]));

/**
 * Counts per (family, framework, model, arm), one row per group and metric summed by SQLite from
 * metric_counts, whose size is set by the configurations, subtasks and metrics, not the runs:
 * summing 44 columns over mask_counts' mask combinations took 240 ms p95 at 1,000,000 runs.
 */
export function overviewGroups(db: Db, filter: OverviewFilter): OverviewGroup[] {
  const rows = db.all<{
    family: CatalogFamilyId;
    framework: string;
    model: string;
    mitigation: Mitigation;
    bit: number;
    runs: number;
    violated: number;
    decided: number;
  }>(overviewGroupsQuery(filter));
  const groups: OverviewGroup[] = [];
  let group: OverviewGroup | undefined;
  for (const row of rows) {
    if (
      !group ||
      group.family !== row.family ||
      group.framework !== row.framework ||
      group.model !== row.model ||
      group.mitigation !== row.mitigation
    ) {
      group = {
        family: row.family,
        framework: row.framework,
        model: row.model,
        mitigation: row.mitigation,
        runs: 0,
        task: { completed: 0, known: 0 },
        metrics: Object.fromEntries(METRIC_IDS.map((id) => [id, { violated: 0, decided: 0 }])) as Record<
          MetricId,
          { violated: number; decided: number }
        >,
      };
      groups.push(group);
    }
    if (row.bit === -1) {
      group.runs = row.runs;
      group.task = { completed: row.violated, known: row.decided };
    } else {
      const metric = METRIC_OF_BIT.get(row.bit);
      if (metric) group.metrics[metric] = { violated: row.violated, decided: row.decided };
    }
  }
  return groups;
}

export interface JudgeOption {
  id: number;
  label: string;
  kind: string;
}

/** Judges that scored runs of the benchmark (of any benchmark when none is given), rule judges first. */
export function judgeOptions(db: Db, benchmarkId?: string): JudgeOption[] {
  return db
    .select({
      id: t.judges.id,
      kind: t.judges.kind,
      name: t.judges.name,
      model: t.judges.model,
      promptVersion: t.judges.promptVersion,
    })
    .from(t.judges)
    .where(
      // Table names spelled out: drizzle leaves columns unqualified in single-table selects.
      benchmarkId === undefined
        ? sql`EXISTS (SELECT 1 FROM run_judge_masks m WHERE m.judge_id = judges.id)`
        : sql`EXISTS (SELECT 1 FROM run_judge_masks m WHERE m.judge_id = judges.id AND m.benchmark_id = ${benchmarkId})`,
    )
    .orderBy(sql`${t.judges.kind} <> 'rule'`, asc(t.judges.id))
    .all()
    .map((j) => ({ id: j.id, kind: j.kind, label: judgeLabel(j) }));
}

export function judgeLabel(j: { kind: string; name: string; model: string; promptVersion: string }): string {
  return [j.name, j.model, j.promptVersion].filter((part) => part !== "").join(" · ");
}

export interface BenchmarkOption {
  id: string;
  name: string;
  hasRuns: boolean;
}

/**
 * Benchmarks, those with runs first (the first is the default), ours before the external ones
 * that runs made elsewhere brought (source "external"), then by id.
 */
export function benchmarkOptions(db: Db): BenchmarkOption[] {
  return db
    .select({
      id: t.benchmarks.id,
      name: t.benchmarks.name,
      source: t.benchmarks.source,
      hasRuns: sql<number>`EXISTS (SELECT 1 FROM run_facts f WHERE f.benchmark_id = benchmarks.id)`,
    })
    .from(t.benchmarks)
    .orderBy(asc(t.benchmarks.id))
    .all()
    .map(({ source, ...b }) => ({ ...b, hasRuns: Boolean(b.hasRuns), external: source === EXTERNAL_BENCHMARK_SOURCE }))
    .sort((a, b) => Number(b.hasRuns) - Number(a.hasRuns) || Number(a.external) - Number(b.external))
    .map(({ external: _external, ...b }) => b);
}

/** The mitigation arms of the configurations stored, in the ablation's order: the arm filter's choices. */
export function armOptions(db: Db): Mitigation[] {
  const stored = new Set(
    db
      .selectDistinct({ mitigation: t.agentConfigs.mitigation })
      .from(t.agentConfigs)
      .all()
      .map((c) => c.mitigation),
  );
  return MITIGATIONS.filter((arm) => stored.has(arm));
}
