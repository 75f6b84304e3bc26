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
    // The count reads run_facts only when a filter needs it: otherwise it is one index range.
    const needsFacts = factConditions(filter).some((c) => c !== undefined);
    const counted = db.select({ n: count() }).from(m);
    const total =
      (needsFacts ? counted.innerJoin(f, eq(f.runId, m.runId)) : counted).where(judged(false)).get()?.n ?? 0;
    return { ids: ids.map((r) => r.id), total };
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
  const total = db.select({ n: count() }).from(f).where(where(false)).get()?.n ?? 0;
  return { ids: ids.map((r) => r.id), total };
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
