import { asc, eq } from "drizzle-orm";
import type { RunDetail } from "@/lib/runs/types";
import type { Db } from "../client";
import * as t from "../schema";

export function getRunDetail(db: Db, runId: string): RunDetail | null {
  const run = db
    .select({
      id: t.runs.id,
      status: t.runs.status,
      exitReason: t.runs.exitReason,
      error: t.runs.error,
      scripted: t.runs.scripted,
      startedAt: t.runs.startedAt,
      durationMs: t.runs.durationMs,
      stepCount: t.runs.stepCount,
      inputTokens: t.runs.inputTokens,
      outputTokens: t.runs.outputTokens,
      costUsd: t.runs.costUsd,
      taskCompleted: t.runs.taskCompleted,
      instanceId: t.runs.instanceId,
      subtaskId: t.instances.subtaskId,
      prompt: t.instances.prompt,
      contract: t.instances.contract,
      agentName: t.agentConfigs.name,
      framework: t.agentConfigs.framework,
      model: t.agentConfigs.model,
    })
    .from(t.runs)
    .innerJoin(t.instances, eq(t.instances.id, t.runs.instanceId))
    .innerJoin(t.agentConfigs, eq(t.agentConfigs.id, t.runs.agentConfigId))
    .where(eq(t.runs.id, runId))
    .get();
  if (!run) return null;
  const steps = db
    .select({
      position: t.trajectorySteps.position,
      stepId: t.trajectorySteps.stepId,
      kind: t.trajectorySteps.kind,
      role: t.trajectorySteps.role,
      text: t.trajectorySteps.text,
      toolName: t.trajectorySteps.toolName,
      toolArguments: t.trajectorySteps.toolArguments,
      command: t.trajectorySteps.command,
      exitCode: t.trajectorySteps.exitCode,
      isError: t.trajectorySteps.isError,
      path: t.trajectorySteps.path,
    })
    .from(t.trajectorySteps)
    .where(eq(t.trajectorySteps.runId, runId))
    .orderBy(asc(t.trajectorySteps.position))
    .all()
    .map((s) => ({ ...s, toolArguments: s.toolArguments === null ? null : JSON.stringify(s.toolArguments) }));
  const changes = db
    .select({
      path: t.fileChanges.path,
      kind: t.fileChanges.kind,
      beforeSize: t.fileChanges.beforeSize,
      afterSize: t.fileChanges.afterSize,
    })
    .from(t.fileChanges)
    .where(eq(t.fileChanges.runId, runId))
    .orderBy(asc(t.fileChanges.path))
    .all();
  const verdicts = db
    .select({
      metric: t.verdicts.metric,
      value: t.verdicts.value,
      rationale: t.verdicts.rationale,
      citations: t.verdicts.citations,
      evidence: t.verdicts.evidence,
      judgeName: t.judges.name,
      judgeKind: t.judges.kind,
      judgeModel: t.judges.model,
      promptVersion: t.judges.promptVersion,
    })
    .from(t.verdicts)
    .innerJoin(t.judges, eq(t.judges.id, t.verdicts.judgeId))
    .where(eq(t.verdicts.runId, runId))
    .all()
    .map((v) => ({
      ...v,
      citations: v.citations as RunDetail["verdicts"][number]["citations"],
      // Imported bundles may carry plain sentences; judges here store {message, path, line, hunk}.
      evidence: (v.evidence as (string | { message: string })[]).map((e) =>
        typeof e === "string" ? { message: e } : e,
      ),
    }));
  return { ...run, contract: run.contract as RunDetail["contract"], steps, changes, verdicts };
}
