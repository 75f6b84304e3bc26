/**
 * What a dashboard page shows and its export writes, computed once for both: the overview's
 * tables and the comparison of two configurations, for a benchmark and judge already resolved
 * (resolveDashboardScope). The pages render these; app/api/export writes the same rows.
 */
import { comparedPair, compareConfigurations, type Comparison } from "@/lib/dashboard/compare";
import { prepareOverviewTables, type OverviewGroup, type OverviewTable } from "@/lib/dashboard/overview";
import type { CompareParams, OverviewParams } from "@/lib/dashboard/params";
import type { Db } from "../client";
import { configOptions, pairedRuns, type ConfigOption } from "./compare";
import { overviewGroups, type OverviewFilter } from "./overview";

/** A benchmark and a judge that has verdicts on it. */
export interface JudgedScope {
  benchmarkId: string;
  judgeId: number;
}

export interface OverviewView {
  filter: OverviewFilter;
  groups: OverviewGroup[];
  tables: OverviewTable[];
}

export function overviewView(db: Db, params: OverviewParams, scope: JudgedScope): OverviewView {
  const filter: OverviewFilter = {
    benchmarkId: scope.benchmarkId,
    judgeId: scope.judgeId,
    split: params.split,
    family: params.family,
    subtaskId: params.subtask,
    mitigation: params.arm,
  };
  const groups = overviewGroups(db, filter);
  return { filter, groups, tables: prepareOverviewTables(groups) };
}

export interface CompareView {
  /** The configurations with judged runs on the benchmark. */
  configs: ConfigOption[];
  a: string | undefined;
  b: string | undefined;
  /** null unless two different configurations are compared. */
  comparison: Comparison | null;
}

export function compareView(db: Db, params: CompareParams, scope: JudgedScope): CompareView {
  const configs = configOptions(db, scope.benchmarkId, scope.judgeId);
  const { a, b } = comparedPair(
    configs.map((c) => c.id),
    params,
  );
  const comparison =
    a && b && a !== b
      ? compareConfigurations(pairedRuns(db, { benchmarkId: scope.benchmarkId, judgeId: scope.judgeId, a, b }))
      : null;
  return { configs, a, b, comparison };
}
