import type { Db } from "../client";
import { benchmarkOptions, judgeOptions, type BenchmarkOption, type JudgeOption } from "./overview";

export type DashboardScope =
  | { kind: "ok"; benchmarks: BenchmarkOption[]; benchmarkId: string; judges: JudgeOption[]; judgeId: number | null }
  | { kind: "no-runs" }
  | { kind: "error"; errors: string[] };

/**
 * The benchmark and judge a dashboard page shows: the ones asked for, else the benchmark with the
 * most runs and its rule judge. An unknown benchmark or judge is an error naming it; a benchmark
 * nobody judged yet has judgeId null (the page says how to evaluate).
 */
export function resolveDashboardScope(db: Db, asked: { benchmark?: string; judge?: number }): DashboardScope {
  const benchmarks = benchmarkOptions(db).filter((b) => b.hasRuns || b.id === asked.benchmark);
  if (benchmarks.length === 0) return { kind: "no-runs" };
  const benchmarkId = asked.benchmark ?? benchmarks[0]!.id;
  if (!benchmarks.some((b) => b.id === benchmarkId)) {
    return { kind: "error", errors: [`benchmark: no benchmark "${benchmarkId}"`] };
  }
  const judges = judgeOptions(db, benchmarkId);
  if (asked.judge !== undefined && !judges.some((j) => j.id === asked.judge)) {
    return { kind: "error", errors: [`judge: judge ${asked.judge} has no verdicts on benchmark "${benchmarkId}"`] };
  }
  return { kind: "ok", benchmarks, benchmarkId, judges, judgeId: asked.judge ?? judges[0]?.id ?? null };
}
