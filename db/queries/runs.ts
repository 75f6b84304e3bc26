/**
 * The runs browser: server-side filtering, sorting and paging over run_facts (one row per run),
 * the chosen judge's masks for "violated metric" and the violation count, and the FTS5 index
 * over prompts and trajectories.
 */
import { and, asc, count, desc, eq, inArray, ne, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Mitigation } from "@/lib/codekit/arms";
import type { RunsParams } from "@/lib/dashboard/params";
import type { RunSort } from "@/lib/dashboard/run-list";
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
  /** At most this many runs the words match are searched, the newest (SEARCH_HIT_CAP by default). */
  searchCap?: number;
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

/**
 * Runs that match the words, newest first, beyond which the browser filters, sorts and counts no
 * further. Reading every hit made a common word cost as much as the database is large: "pytest"
 * matches 86% of the runs, and with a metric filter its page took 2.2 s at 1,000,000 runs; the newest 10,000
 * are read in 4 ms at 200,000 runs, and sorting them is an in-memory sort of 10,000 rows.
 */
export const SEARCH_HIT_CAP = 10_000;

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
function factConditions(filter: RunsFilter): (SQL | undefined)[] {
  const fts = filter.q ? toFtsQuery(filter.q) : null;
  return [
    filter.subtaskId ? eq(f.subtaskId, filter.subtaskId) : undefined,
    filter.framework ? eq(f.framework, filter.framework) : undefined,
    filter.model ? eq(f.model, filter.model) : undefined,
    filter.mitigation ? eq(f.mitigation, filter.mitigation) : undefined,
    filter.status ? eq(f.status, filter.status) : undefined,
    filter.disagreement ? ne(f.disagreementMask, 0) : undefined,
    // Words that hold nothing searchable (only punctuation) match no run rather than every run.
    filter.q ? (fts ? sql`${f.id} IN temp.search_hits` : sql`0`) : undefined,
  ];
}

/**
 * Step one: the ids of the page's runs, and the total. Filtering or sorting by the judge's
 * verdicts walks the judge's masks (only runs it judged can match); otherwise run_facts alone.
 * Every ORDER BY ends in a tie-break the sort column's index already holds, so a page is an
 * index walk even at offset 50,000.
 */
function pageIds(db: Db, filter: RunsFilter): { ids: string[]; total: number } {
  const direction = filter.dir === "asc" ? asc : desc;
  // With words the page is their hits (at most the cap) sorted: the unary + keeps SQLite from
  // walking the sort column's index through a million runs to find them.
  const order = (column: SQLWrapper) => direction(filter.q ? sql`+${column}` : column);
  if ((filter.metric || filter.sort === "violations") && filter.judgeId !== null) {
    const judged = and(
      eq(m.judgeId, filter.judgeId!),
      filter.benchmarkId ? eq(m.benchmarkId, filter.benchmarkId) : undefined,
      filter.metric ? sql`(${m.violatedMask} & ${metricBit(filter.metric)}) != 0` : undefined,
      ...factConditions(filter),
    );
    const orderBy =
      filter.sort === "violations"
        ? [order(m.violatedCount), order(m.startedAt), order(m.runId)]
        : filter.sort === "started"
          ? [order(m.startedAt), order(m.runId)]
          : [order(FACT_SORT[filter.sort]), order(f.id)];
    const ids = db
      .select({ id: m.runId, hits: hitsCounted(filter) })
      .from(m)
      .innerJoin(f, eq(f.runId, m.runId))
      .where(judged)
      .orderBy(...orderBy)
      .limit(filter.limit)
      .offset(filter.offset)
      .all();
    return { ids: ids.map((r) => r.id), total: ids[0]?.hits ?? judgedTotal(db, filter, judged) };
  }
  if (filter.metric) return { ids: [], total: 0 };
  const column = filter.sort === "violations" ? f.startedAt : FACT_SORT[filter.sort];
  const where = and(filter.benchmarkId ? eq(f.benchmarkId, filter.benchmarkId) : undefined, ...factConditions(filter));
  const ids = db
    .select({ id: f.runId, hits: hitsCounted(filter) })
    .from(f)
    .where(where)
    .orderBy(order(column), order(f.id))
    .limit(filter.limit)
    .offset(filter.offset)
    .all();
  return { ids: ids.map((r) => r.id), total: ids[0]?.hits ?? factsTotal(db, filter, where) };
}

/**
 * With words, the page query counts the matching hits as it sorts them (a window over the whole
 * result, taken before LIMIT): one pass over up to 10,000 hits, not a second for the total.
 * Without words the counts tables answer; null: not counted here.
 */
function hitsCounted(filter: RunsFilter) {
  return filter.q ? sql<number>`count(*) OVER ()`.mapWith(Number) : sql<null>`NULL`;
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
 * and count queries then look runs up in (an `IN (SELECT ... MATCH)` would run the search twice).
 * Keeps the newest `cap` hits (FTS5 reads its index backwards for ORDER BY rowid DESC, and stops);
 * returns whether more runs match. Nothing is written to the database file.
 */
function loadSearchHits(db: Db, q: string | undefined, cap: number): boolean {
  const fts = q ? toFtsQuery(q) : null;
  if (!fts) return false;
  db.run(sql`CREATE TEMP TABLE IF NOT EXISTS search_hits (id INTEGER PRIMARY KEY)`);
  db.run(sql`DELETE FROM temp.search_hits`);
  db.run(sql`INSERT INTO temp.search_hits
    SELECT rowid FROM run_search WHERE run_search MATCH ${fts} ORDER BY rowid DESC LIMIT ${cap + 1}`);
  const capped = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM temp.search_hits`)!.n > cap;
  if (capped) db.run(sql`DELETE FROM temp.search_hits WHERE id = (SELECT min(id) FROM temp.search_hits)`);
  return capped;
}

export function searchRuns(db: Db, filter: RunsFilter): RunListPage {
  // better-sqlite3 is synchronous: nothing else uses the connection between these statements.
  const cap = filter.searchCap ?? SEARCH_HIT_CAP;
  const searchCap = loadSearchHits(db, filter.q, cap) ? cap : null;
  const { ids, total } = pageIds(db, filter);
  if (ids.length === 0) return { rows: [], total, searchCap };
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
  return { rows: ids.map((id) => byId.get(id)!), total, searchCap };
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
