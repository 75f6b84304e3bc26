import type { Db } from "../client";
import { benchmarkOptions, judgeOptions, type BenchmarkOption, type JudgeOption } from "./overview";

export type DashboardScope =
  | { kind: "ok"; benchmarks: BenchmarkOption[]; benchmarkId: string; judges: JudgeOption[]; judgeId: number | null }
  | { kind: "no-runs" }
  | { kind: "error"; errors: string[] };

/**
 * The benchmark and judge a dashboard page shows: the ones asked for, else the first benchmark
 * (by id) that has runs, and its rule judge. An unknown benchmark or judge is an error naming it; a benchmark
 * nobody judged yet has judgeId null (the page says how to evaluate).
 */
export function resolveDashboardScope(db: Db, asked: { benchmark?: string; judge?: number }): DashboardScope {
  const benchmarks = benchmarkOptions(db).filter((b) => b.hasRuns || b.id === asked.benchmark);
  if (benchmarks.length === 0) return { kind: "no-runs" };
  const benchmarkId = asked.benchmark ?? benchmarks[0]!.id;
  return withJudge(db, benchmarks, benchmarkId, asked.judge);
}

/**
 * The runs browser's scope: every benchmark unless one is asked for, and the judges of what is
 * shown. `benchmarkId` is "" for all benchmarks.
 */
export function resolveRunsScope(db: Db, asked: { benchmark?: string; judge?: number }): DashboardScope {
  if (asked.benchmark !== undefined) return resolveDashboardScope(db, asked);
  const benchmarks = benchmarkOptions(db).filter((b) => b.hasRuns);
  if (benchmarks.length === 0) return { kind: "no-runs" };
  return withJudge(db, benchmarks, "", asked.judge);
}

function withJudge(
  db: Db,
  benchmarks: BenchmarkOption[],
  benchmarkId: string,
  judge: number | undefined,
): DashboardScope {
  if (benchmarkId !== "" && !benchmarks.some((b) => b.id === benchmarkId)) {
    return { kind: "error", errors: [`benchmark: no benchmark "${benchmarkId}"`] };
  }
  const judges = judgeOptions(db, benchmarkId === "" ? undefined : benchmarkId);
  if (judge !== undefined && !judges.some((j) => j.id === judge)) {
    const where = benchmarkId === "" ? "any benchmark" : `benchmark "${benchmarkId}"`;
    return { kind: "error", errors: [`judge: judge ${judge} has no verdicts on ${where}`] };
  }
  return { kind: "ok", benchmarks, benchmarkId, judges, judgeId: judge ?? judges[0]?.id ?? null };
}
