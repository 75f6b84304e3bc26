import { count, desc, eq } from "drizzle-orm";
import type { RunListPage } from "@/lib/runs/types";
import type { Db } from "../client";
import * as t from "../schema";

/** Newest first. */
export function listRuns(db: Db, options: { limit: number; offset: number }): RunListPage {
  const rows = db
    .select({
      id: t.runs.id,
      benchmarkId: t.instances.benchmarkId,
      instanceId: t.runs.instanceId,
      subtaskId: t.instances.subtaskId,
      framework: t.agentConfigs.framework,
      model: t.agentConfigs.model,
      agentName: t.agentConfigs.name,
      status: t.runs.status,
      exitReason: t.runs.exitReason,
      scripted: t.runs.scripted,
      stepCount: t.runs.stepCount,
      inputTokens: t.runs.inputTokens,
      outputTokens: t.runs.outputTokens,
      costUsd: t.runs.costUsd,
      durationMs: t.runs.durationMs,
      taskCompleted: t.runs.taskCompleted,
      startedAt: t.runs.startedAt,
    })
    .from(t.runs)
    .innerJoin(t.instances, eq(t.instances.id, t.runs.instanceId))
    .innerJoin(t.agentConfigs, eq(t.agentConfigs.id, t.runs.agentConfigId))
    .orderBy(desc(t.runs.startedAt), t.runs.id)
    .limit(options.limit)
    .offset(options.offset)
    .all();
  const total = db.select({ n: count() }).from(t.runs).get()?.n ?? 0;
  return { rows, total };
}
