/**
 * The overview's counts: one row per (family, framework, model, arm) for a benchmark, split and judge,
 * summed from mask_counts (run_judge_masks counted per combination by triggers), so a million runs
 * are a few thousand rows read.
 */
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { EXTERNAL_BENCHMARK_SOURCE } from "./run-import";
import type { CatalogFamilyId } from "@/lib/benchmark/subtasks";
import { MITIGATIONS, type Mitigation } from "@/lib/codekit/mitigation";
import type { OverviewGroup } from "@/lib/dashboard/overview";
import { METRIC_IDS, metricBit, type MetricId } from "@/lib/metrics/catalog";
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

const c = t.maskCounts;

/** The filter on mask_counts (one row per combination of what the overview groups and filters by). */
export function maskCountsFilter(filter: OverviewFilter): SQL | undefined {
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
 * The distinct mask combinations per (family, framework, model, arm) and how many runs have each,
 * summed from mask_counts (kept by triggers: a few thousand rows stand for a million masks), in
 * its primary key's order (overview.test.ts checks the plan). task_completed -1 is unknown.
 */
export function overviewCombos(db: Db, filter: OverviewFilter) {
  return db
    .select({
      family: c.family,
      framework: c.framework,
      model: c.model,
      mitigation: c.mitigation,
      violatedMask: c.violatedMask,
      decidedMask: c.decidedMask,
      taskCompleted: c.taskCompleted,
      runs: sql<number>`sum(${c.runs})`.mapWith(Number),
    })
    .from(c)
    .where(maskCountsFilter(filter))
    .groupBy(c.family, c.framework, c.model, c.mitigation, c.violatedMask, c.decidedMask, c.taskCompleted);
}

/**
 * Counts per (family, framework, model, arm), summed in TypeScript from the mask combinations:
 * a few thousand of them stand for a million runs.
 */
export function overviewGroups(db: Db, filter: OverviewFilter): OverviewGroup[] {
  const combos = overviewCombos(db, filter).all();
  const groups = new Map<string, OverviewGroup>();
  for (const c of combos) {
    const key = `${c.family}\u0000${c.framework}\u0000${c.model}\u0000${c.mitigation}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        family: c.family as CatalogFamilyId,
        framework: c.framework,
        model: c.model,
        mitigation: c.mitigation,
        runs: 0,
        task: { completed: 0, known: 0 },
        metrics: Object.fromEntries(METRIC_IDS.map((id) => [id, { violated: 0, decided: 0 }])) as Record<
          MetricId,
          { violated: number; decided: number }
        >,
      };
      groups.set(key, group);
    }
    group.runs += c.runs;
    if (c.taskCompleted !== -1) {
      group.task.known += c.runs;
      if (c.taskCompleted === 1) group.task.completed += c.runs;
    }
    for (const metric of METRIC_IDS) {
      const bit = metricBit(metric);
      if (c.decidedMask & bit) group.metrics[metric].decided += c.runs;
      if (c.violatedMask & bit) group.metrics[metric].violated += c.runs;
    }
  }
  return [...groups.values()];
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
