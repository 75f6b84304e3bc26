/**
 * Which instances run-agents runs, and under which run ids. A run's id is its agent configuration's
 * id and a digest of its instance's, so the same configuration on the same instance is the same
 * run: what a configuration already ran is skipped, and an interrupted batch resumes.
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { AppError } from "@/lib/errors/app-error";
import type { Db } from "../client";
import * as t from "../schema";
import type { RunBatchStore, RunPlanRequest } from "@/lib/runner/run-batch";
import { inShard } from "@/lib/runner/shard";
import { getInstance, listInstances, type InstanceListRow } from "./benchmarks";
import { instanceWorkspaceSource } from "./instance-workspace";
import { importParsedBundle } from "./run-import";

export const runIdOf = (configId: string, instanceId: string) =>
  `${configId}-${createHash("sha256").update(instanceId).digest("hex").slice(0, 16)}`;

export type { RunPlanRequest };

export interface RunPlan {
  /** Instances the request matches. */
  matched: number;
  /** Of those, the ones this configuration already ran. */
  alreadyRun: number;
  todo: { instance: InstanceListRow; runId: string }[];
}

export function planRuns(db: Db, request: RunPlanRequest): RunPlan {
  const matching = matchingInstances(db, request);
  const chosen = request.instanceIds ? onlyThese(matching, request.instanceIds, request.benchmarkId) : matching;
  const rows = request.shard ? inShard(chosen, request.shard) : chosen;
  const existing = new Set(
    db
      .select({ id: t.runs.id })
      .from(t.runs)
      .where(eq(t.runs.agentConfigId, request.configId))
      .all()
      .map((r) => r.id),
  );
  const pending = rows
    .map((instance) => ({ instance, runId: runIdOf(request.configId, instance.id) }))
    .filter((r) => !existing.has(r.runId));
  const taken = new Map<string, number>();
  const spread = pending.filter(({ instance }) => {
    const n = taken.get(instance.subtaskId) ?? 0;
    taken.set(instance.subtaskId, n + 1);
    return request.perSubtask === undefined || n < request.perSubtask;
  });
  return {
    matched: rows.length,
    alreadyRun: rows.length - pending.length,
    todo: spread.slice(0, request.limit ?? spread.length),
  };
}

/** The instances of the benchmark under the filters, by id; an error naming the filters when there are none. */
function matchingInstances(db: Db, request: Pick<RunPlanRequest, "benchmarkId" | "subtask" | "splitOnly">) {
  const { rows } = listInstances(db, {
    benchmarkId: request.benchmarkId,
    subtask: request.subtask,
    splitOnly: request.splitOnly,
    limit: 1_000_000,
    offset: 0,
  });
  if (rows.length === 0)
    throw new AppError(
      "INVALID_INPUT",
      `benchmark "${request.benchmarkId}" has no such instances (split ${request.splitOnly ? "eval" : "all"}${request.subtask ? `, ${request.subtask}` : ""})`,
    );
  return rows;
}

function onlyThese(rows: InstanceListRow[], ids: readonly string[], benchmarkId: string): InstanceListRow[] {
  const wanted = new Set(ids);
  const missing = [...wanted].filter((id) => !rows.some((r) => r.id === id));
  if (missing.length > 0)
    throw new AppError(
      "INVALID_INPUT",
      `--instances: ${missing.length} instance(s) not in benchmark "${benchmarkId}" under these filters, e.g. "${missing[0]}"`,
    );
  return rows.filter((r) => wanted.has(r.id));
}

/**
 * The first N instances of each subtask (by id) and at most `limit` in all, whatever already ran:
 * the same answer for every configuration, so the arms of an ablation run the same instances.
 */
export function pickInstances(
  db: Db,
  request: Pick<RunPlanRequest, "benchmarkId" | "subtask" | "splitOnly" | "perSubtask" | "limit">,
): InstanceListRow[] {
  const taken = new Map<string, number>();
  const spread = matchingInstances(db, request).filter((instance) => {
    const n = taken.get(instance.subtaskId) ?? 0;
    taken.set(instance.subtaskId, n + 1);
    return request.perSubtask === undefined || n < request.perSubtask;
  });
  return spread.slice(0, request.limit ?? spread.length);
}

/** What a batch of runs reads and writes (lib/runner/run-batch.ts) on this database. */
export function runBatchStore(db: Db): RunBatchStore {
  return {
    instance: async (id) => getInstance(db, id)?.instance ?? null,
    workspaceSource: async (id) => instanceWorkspaceSource(db, id),
    importBundle: (bundle) => void importParsedBundle(db, bundle, { via: "runner" }),
  };
}
