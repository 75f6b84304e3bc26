/**
 * The runs browser: server-side filtering, sorting and paging over run_facts (one row per run),
 * the chosen judge's masks for "violated metric" and the violation count, and the FTS5 index
 * over prompts and trajectories.
 */
import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { Mitigation } from "@/lib/codekit/mitigation";
import type { RunSort, RunsParams } from "@/lib/dashboard/params";
import { metricBit, type MetricId } from "@/lib/metrics/catalog";
import type { RunListPage, RunListRow, TaskCheckOutcome } from "@/lib/runs/types";
import type { Db } from "../client";
import * as t from "../schema";
import { toFtsQuery } from "./run-search";

export interface RunsFilter {
  benchmarkId?: string;
  /** Whose verdicts the violated-metric filter and the violation column use; null: none. */
  judgeId: number | null;
  metric?: MetricId;
  subtaskId?: string;
  framework?: string;
  model?: string;
  /** Only runs of configurations with this mitigation arm. */
  mitigation?: Mitigation;
  status?: "completed" | "failed";
  /** Only runs on which two judges disagree about some metric. */
  disagreement?: boolean;
  /** Words to find in the prompt or the trajectory (all of them). */
  q?: string;
  sort: RunSort;
  dir: "asc" | "desc";
  limit: number;
  offset: number;
}

/** The browser's URL parameters, in the scope the page resolved ("" = every benchmark), as a query filter. */
export function runsFilterFor(
  params: RunsParams,
  scope: { benchmarkId: string; judgeId: number | null },
  page: { limit: number; offset: number },
): RunsFilter {
  return {
    benchmarkId: scope.benchmarkId === "" ? undefined : scope.benchmarkId,
    judgeId: scope.judgeId,
    metric: params.metric,
    subtaskId: params.subtask,
    framework: params.framework,
    model: params.model,
    mitigation: params.arm,
    status: params.status,
    disagreement: params.disagreement === "1",
    q: params.q,
    sort: params.sort,
    dir: params.dir,
    ...page,
  };
}

const f = t.runFacts;
const m = t.runJudgeMasks;

const FACT_SORT = {
  started: f.startedAt,
  steps: f.stepCount,
  tokens: f.totalTokens,
  cost: f.costUsd,
  duration: f.durationMs,
} as const;

/** Conditions on run_facts other than the benchmark (which each path puts on its own table). */
function factConditions(filter: RunsFilter, ordered = false): (SQL | undefined)[] {
  const fts = filter.q ? toFtsQuery(filter.q) : null;
  return [
    filter.subtaskId ? eq(f.subtaskId, filter.subtaskId) : undefined,
    filter.framework ? eq(f.framework, filter.framework) : undefined,
    filter.model ? eq(f.model, filter.model) : undefined,
    filter.mitigation ? eq(f.mitigation, filter.mitigation) : undefined,
    filter.status ? eq(f.status, filter.status) : undefined,
    filter.disagreement ? ne(f.disagreementMask, 0) : undefined,
    // Words that hold nothing searchable (only punctuation) match no run rather than every run.
    // For an ordered page the unary + keeps the planner walking the sort column's index and
    // checking each run against the hits, instead of sorting every hit (86k for "pytest").
    filter.q
      ? fts
        ? ordered
          ? sql`+${f.id} IN temp.search_hits`
          : sql`${f.id} IN temp.search_hits`
        : sql`0`
      : undefined,
  ];
}

/**
 * Step one: the ids of the page's runs, and the total. Filtering or sorting by the judge's
 * verdicts walks the judge's masks (only runs it judged can match); otherwise run_facts alone.
 * Every ORDER BY ends in a tie-break the sort column's index already holds, so a page is an
 * index walk even at offset 50,000.
 */
function pageIds(db: Db, filter: RunsFilter): { ids: string[]; total: number } {
  const order = filter.dir === "asc" ? asc : desc;
  if ((filter.metric || filter.sort === "violations") && filter.judgeId !== null) {
    const judged = (ordered: boolean) =>
      and(
        eq(m.judgeId, filter.judgeId!),
        filter.benchmarkId ? eq(m.benchmarkId, filter.benchmarkId) : undefined,
        filter.metric ? sql`(${m.violatedMask} & ${metricBit(filter.metric)}) != 0` : undefined,
        ...factConditions(filter, ordered),
      );
    const orderBy =
      filter.sort === "violations"
        ? [order(m.violatedCount), order(m.startedAt), order(m.runId)]
        : filter.sort === "started"
          ? [order(m.startedAt), order(m.runId)]
          : [order(FACT_SORT[filter.sort]), order(f.id)];
    const ids = db
      .select({ id: m.runId })
      .from(m)
      .innerJoin(f, eq(f.runId, m.runId))
      .where(judged(true))
      .orderBy(...orderBy)
      .limit(filter.limit)
      .offset(filter.offset)
      .all();
    return { ids: ids.map((r) => r.id), total: judgedTotal(db, filter, judged(false)) };
  }
  if (filter.metric) return { ids: [], total: 0 };
  const column = filter.sort === "violations" ? f.startedAt : FACT_SORT[filter.sort];
  const where = (ordered: boolean) =>
    and(filter.benchmarkId ? eq(f.benchmarkId, filter.benchmarkId) : undefined, ...factConditions(filter, ordered));
  const ids = db
    .select({ id: f.runId })
    .from(f)
    .where(where(true))
    .orderBy(order(column), order(f.id))
    .limit(filter.limit)
    .offset(filter.offset)
    .all();
  return { ids: ids.map((r) => r.id), total: factsTotal(db, filter, where(false)) };
}

const mc = t.maskCounts;
const fc = t.runFactCounts;
const summed = (column: typeof mc.runs | typeof fc.runs) => sql<number | null>`sum(${column})`.mapWith(Number);

/**
 * The total of a page filtered by the judge's verdicts. Summed from mask_counts (per combination
 * of benchmark, subtask, framework, model, arm and masks) when no other filter is set; status,
 * disagreement and words are not in it, so those are counted over the masks and facts.
 */
function judgedTotal(db: Db, filter: RunsFilter, judged: SQL | undefined): number {
  if (!filter.status && !filter.disagreement && !filter.q) {
    const row = db
      .select({ n: summed(mc.runs) })
      .from(mc)
      .where(
        and(
          eq(mc.judgeId, filter.judgeId!),
          filter.benchmarkId ? eq(mc.benchmarkId, filter.benchmarkId) : undefined,
          filter.metric ? sql`(${mc.violatedMask} & ${metricBit(filter.metric)}) != 0` : undefined,
          filter.subtaskId ? eq(mc.subtaskId, filter.subtaskId) : undefined,
          filter.framework ? eq(mc.framework, filter.framework) : undefined,
          filter.model ? eq(mc.model, filter.model) : undefined,
          filter.mitigation ? eq(mc.mitigation, filter.mitigation) : undefined,
        ),
      )
      .get();
    return row?.n ?? 0;
  }
  // The count reads run_facts only when a filter needs it: otherwise it is one index range.
  const needsFacts = factConditions(filter).some((c) => c !== undefined);
  const counted = db.select({ n: count() }).from(m);
  return (needsFacts ? counted.innerJoin(f, eq(f.runId, m.runId)) : counted).where(judged).get()?.n ?? 0;
}

/**
 * The total of a page filtered by run facts only: summed from run_fact_counts (per combination
 * of every such filter) unless words are searched, which only the full-text hits can count.
 */
function factsTotal(db: Db, filter: RunsFilter, where: SQL | undefined): number {
  if (!filter.q) {
    const row = db
      .select({ n: summed(fc.runs) })
      .from(fc)
      .where(
        and(
          filter.benchmarkId ? eq(fc.benchmarkId, filter.benchmarkId) : undefined,
          filter.subtaskId ? eq(fc.subtaskId, filter.subtaskId) : undefined,
          filter.framework ? eq(fc.framework, filter.framework) : undefined,
          filter.model ? eq(fc.model, filter.model) : undefined,
          filter.mitigation ? eq(fc.mitigation, filter.mitigation) : undefined,
          filter.status ? eq(fc.status, filter.status) : undefined,
          filter.disagreement ? eq(fc.disagreement, true) : undefined,
        ),
      )
      .get();
    return row?.n ?? 0;
  }
  return db.select({ n: count() }).from(f).where(where).get()?.n ?? 0;
}

/**
 * Evaluates the full-text query once into a connection-local temporary table, which the page
 * and count queries then look runs up in (an `IN (SELECT ... MATCH)` would run the search twice,
 * and lead the planner to sort every hit). Nothing is written to the database file.
 */
function loadSearchHits(db: Db, q: string | undefined): void {
  const fts = q ? toFtsQuery(q) : null;
  if (!fts) return;
  db.run(sql`CREATE TEMP TABLE IF NOT EXISTS search_hits (id INTEGER PRIMARY KEY)`);
  db.run(sql`DELETE FROM temp.search_hits`);
  db.run(sql`INSERT INTO temp.search_hits SELECT rowid FROM run_search WHERE run_search MATCH ${fts}`);
}

export function searchRuns(db: Db, filter: RunsFilter): RunListPage {
  // better-sqlite3 is synchronous: nothing else uses the connection between these statements.
  loadSearchHits(db, filter.q);
  const { ids, total } = pageIds(db, filter);
  if (ids.length === 0) return { rows: [], total };
  const details = db
    .select({
      id: f.runId,
      benchmarkId: f.benchmarkId,
      instanceId: f.instanceId,
      subtaskId: f.subtaskId,
      framework: f.framework,
      model: f.model,
      mitigation: f.mitigation,
      agentName: t.agentConfigs.name,
      status: f.status,
      exitReason: t.runs.exitReason,
      scripted: f.scripted,
      synthetic: f.synthetic,
      stepCount: f.stepCount,
      totalTokens: f.totalTokens,
      costUsd: f.costUsd,
      durationMs: f.durationMs,
      taskCompleted: f.taskCompleted,
      taskOutcome: t.taskChecks.outcome,
      taskReason: t.taskChecks.reason,
      startedAt: f.startedAt,
      violatedMask: m.violatedMask,
      decidedMask: m.decidedMask,
      disagreementMask: f.disagreementMask,
    })
    .from(f)
    .leftJoin(m, and(eq(m.runId, f.runId), eq(m.judgeId, filter.judgeId ?? -1)))
    .innerJoin(t.runs, eq(t.runs.id, f.runId))
    .innerJoin(t.agentConfigs, eq(t.agentConfigs.id, f.agentConfigId))
    .leftJoin(t.taskChecks, eq(t.taskChecks.runId, f.runId))
    .where(inArray(f.runId, ids))
    .all();
  const byId = new Map(
    details.map(({ taskOutcome, taskReason, ...row }): [string, RunListRow] => [
      row.id,
      {
        ...row,
        taskCheck: taskOutcome === null ? null : { outcome: taskOutcome as TaskCheckOutcome, reason: taskReason ?? "" },
      },
    ]),
  );
  return { rows: ids.map((id) => byId.get(id)!), total };
}

/** Frameworks and models that have runs, for the filter menus. */
export function runFilterOptions(db: Db): { frameworks: string[]; models: string[] } {
  const configs = db
    .selectDistinct({ framework: t.agentConfigs.framework, model: t.agentConfigs.model })
    .from(t.agentConfigs)
    .all();
  return {
    frameworks: [...new Set(configs.map((c) => c.framework))].sort(),
    models: [...new Set(configs.map((c) => c.model))].sort(),
  };
}

/** How many runs there are and the newest by its facts row (bench:dashboard times that run's page). */
export function runCountAndNewest(db: Db): { runs: number; newestRunId: string | null } {
  const runs = db.select({ n: count() }).from(t.runs).get()?.n ?? 0;
  const newest = db.select({ runId: t.runFacts.runId }).from(t.runFacts).orderBy(desc(t.runFacts.id)).limit(1).get();
  return { runs, newestRunId: newest?.runId ?? null };
}
