/**
 * One run as its page shows it: the task and contract, the trajectory (each step marked against
 * the contract, long texts cut), every changed file with the contents its diff needs (within a
 * budget; the rest is fetched per file), the verdicts, and ground truth vs the agent's function.
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import {
  BoundaryContractSchema,
  GroundTruthSchema,
  type BoundaryContract,
  type GroundTruth,
} from "@/lib/benchmark/schema";
import type { Citation } from "@/lib/judge/schema";
import { contractMarks } from "@/lib/runs/contract-marks";
import { decodeText } from "@/lib/runs/file-content";
import { compareTarget } from "@/lib/runs/target-function";
import {
  FULL_EVIDENCE,
  NATIVE_DIR,
  REPO_DIFF_MEMBER,
  type CapturedEvidence,
  type RunSource,
} from "@/lib/bundle/schema";
import type { GuardRecord } from "@/lib/codekit/mitigation";
import { SANDBOX_RECORD_FILE, SandboxRecordSchema } from "@/lib/runner/sandbox-record";
import type { RunDetail, RunProvenance, RunStep } from "@/lib/runs/types";
import type { Db } from "../client";
import * as t from "../schema";
import type { StoredSetupChange } from "./benchmarks";
import { changedFiles, changeRows, contentOf, type ChangeRow, type RunDetailOptions } from "./run-changes";
import { taskCheckOf } from "./stored-task-check";

/** Characters of a step's text (and pretty-printed arguments) the page carries; the bundle keeps all. */
export const STEP_TEXT_LIMIT = 16_000;

function cut(text: string): string {
  return text.length > STEP_TEXT_LIMIT ? `${text.slice(0, STEP_TEXT_LIMIT)}\n…` : text;
}

function prettyArguments(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") {
    try {
      return cut(JSON.stringify(JSON.parse(value), null, 2));
    } catch {
      return cut(value);
    }
  }
  return cut(JSON.stringify(value, null, 2));
}

/** The target file as the task set it up: the instance's setup change, else the repository snapshot. */
function setupFileOf(db: Db, instance: { setup: unknown; snapshotId: number | null }, path: string): string | null {
  const change = (instance.setup as StoredSetupChange[]).find((c) => c.path === path);
  let sha256: string | null = change && !("delete" in change) ? change.sha256 : null;
  if (!change && instance.snapshotId !== null) {
    sha256 =
      db
        .select({ sha256: t.snapshotFiles.sha256 })
        .from(t.snapshotFiles)
        .where(and(eq(t.snapshotFiles.snapshotId, instance.snapshotId), eq(t.snapshotFiles.path, path)))
        .get()?.sha256 ?? null;
  }
  const data = contentOf(db, sha256);
  return data === null ? null : decodeText(data);
}

type RunHead = NonNullable<ReturnType<typeof runHead>>;

function runHead(db: Db, runId: string) {
  return db
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
      groundTruth: t.instances.groundTruth,
      setup: t.instances.setup,
      snapshotId: t.instances.snapshotId,
      agentName: t.agentConfigs.name,
      framework: t.agentConfigs.framework,
      model: t.agentConfigs.model,
      arm: t.agentConfigs.mitigation,
      mitigation: t.runs.mitigation,
      source: t.runs.source,
      evidence: t.runs.evidence,
      workspaceRoot: t.runs.workspaceRoot,
    })
    .from(t.runs)
    .innerJoin(t.instances, eq(t.instances.id, t.runs.instanceId))
    .innerJoin(t.agentConfigs, eq(t.agentConfigs.id, t.runs.agentConfigId))
    .where(eq(t.runs.id, runId))
    .get();
}

/** The trajectory, long texts cut, each step marked against the contract. */
function runSteps(db: Db, runId: string, contract: BoundaryContract, changedPaths: string[]): RunStep[] {
  const stepRows = db
    .select({
      position: t.trajectorySteps.position,
      stepId: t.trajectorySteps.stepId,
      kind: t.trajectorySteps.kind,
      role: t.trajectorySteps.role,
      text: sql<string | null>`substr(${t.trajectorySteps.text}, 1, ${STEP_TEXT_LIMIT})`,
      textLength: sql<number | null>`length(${t.trajectorySteps.text})`,
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
    .all();
  const marks = contractMarks(stepRows, contract, changedPaths);
  return stepRows.map((s, i) => ({
    ...s,
    textLength: s.textLength !== null && s.textLength > STEP_TEXT_LIMIT ? s.textLength : null,
    toolArguments: prettyArguments(s.toolArguments),
    command: s.command === null ? null : cut(s.command),
    marks: marks[i] ?? [],
  }));
}

function runVerdicts(db: Db, runId: string): RunDetail["verdicts"] {
  return db
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
    .orderBy(asc(t.judges.id))
    .all()
    .map((v) => ({
      ...v,
      citations: v.citations as Citation[],
      // Imported bundles may carry plain sentences; judges here store {message, path, line, hunk}.
      evidence: (v.evidence as (string | { message: string })[]).map((e) =>
        typeof e === "string" ? { message: e } : e,
      ),
    }));
}

/** The agent's last assistant message, the answer of a function-level task. */
function finalAnswerOf(db: Db, runId: string): string | null {
  return (
    db
      .select({ text: t.trajectorySteps.text })
      .from(t.trajectorySteps)
      .where(
        and(
          eq(t.trajectorySteps.runId, runId),
          eq(t.trajectorySteps.kind, "message"),
          eq(t.trajectorySteps.role, "assistant"),
        ),
      )
      .orderBy(desc(t.trajectorySteps.position))
      .limit(1)
      .get()?.text ?? null
  );
}

/** Ground truth vs the agent's version of the target function, when the instance names one. */
async function targetOf(
  db: Db,
  run: RunHead,
  groundTruth: GroundTruth,
  rows: ChangeRow[],
): Promise<RunDetail["target"]> {
  const file = groundTruth.originalFile;
  if (!file || !groundTruth.targetQualifiedName) return null;
  const change = rows.find((r) => r.path === file);
  const afterData = change ? contentOf(db, change.afterSha256) : undefined;
  return compareTarget({
    subtask: run.subtaskId,
    groundTruth,
    fileAfter: afterData === undefined ? undefined : afterData === null ? null : decodeText(afterData),
    fileSetup: change ? null : setupFileOf(db, run, file),
    finalAnswer: finalAnswerOf(db, run.id),
  });
}

export async function getRunDetail(db: Db, runId: string, options: RunDetailOptions = {}): Promise<RunDetail | null> {
  const run = runHead(db, runId);
  if (!run) return null;
  const { setup: _setup, snapshotId: _snapshotId, source, evidence, workspaceRoot, ...head } = run;
  const contract = BoundaryContractSchema.parse(run.contract);
  const groundTruth = GroundTruthSchema.parse(run.groundTruth);
  const rows = changeRows(db, runId);
  return {
    ...head,
    contract,
    groundTruth,
    steps: runSteps(
      db,
      runId,
      contract,
      rows.map((r) => r.path),
    ),
    changes: changedFiles(db, runId, rows, options),
    verdicts: runVerdicts(db, runId),
    target: await targetOf(db, run, groundTruth, rows),
    provenance: source ? provenanceOf(db, runId, source, evidence ?? FULL_EVIDENCE, workspaceRoot) : null,
    taskCheck: taskCheckOf(db, runId),
    guard: guardRecordOf(db, runId),
  };
}

/** A sandbox record larger than this is not read: the runner's are a few KB (a gap or breach per file at most). */
export const SANDBOX_RECORD_LIMIT = 1_000_000;

/**
 * The guard's record from the run's `native/sandbox.json`, when it has one that reads as the
 * runner writes it. The file may come from a bundle made elsewhere: it is read only when small,
 * and anything that is not the runner's shape is left out rather than shown.
 */
function guardRecordOf(db: Db, runId: string): GuardRecord | null {
  const row = db
    .select({ content: t.fileContents.content, size: t.fileContents.size })
    .from(t.runArtifacts)
    .innerJoin(t.fileContents, eq(t.fileContents.sha256, t.runArtifacts.sha256))
    .where(
      and(
        eq(t.runArtifacts.runId, runId),
        eq(t.runArtifacts.path, `${NATIVE_DIR}${SANDBOX_RECORD_FILE}`),
        sql`${t.fileContents.size} <= ${SANDBOX_RECORD_LIMIT}`,
      ),
    )
    .get();
  if (!row?.content) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(row.content).toString("utf8"));
  } catch {
    return null;
  }
  return SandboxRecordSchema.safeParse(json).data?.guard ?? null;
}

/** Bytes of a foreign run's repo diff the page carries; the bundle keeps all of it. */
export const REPO_DIFF_LIMIT = 200_000;

function provenanceOf(
  db: Db,
  runId: string,
  source: RunSource,
  evidence: CapturedEvidence,
  workspaceRoot: string | null,
): RunProvenance {
  // Only the head of the diff leaves the database (a diff may be as large as its log).
  const diff = db
    .select({
      head: sql<Buffer>`substr(${t.fileContents.content}, 1, ${REPO_DIFF_LIMIT})`,
      size: t.fileContents.size,
    })
    .from(t.runArtifacts)
    .innerJoin(t.fileContents, eq(t.fileContents.sha256, t.runArtifacts.sha256))
    .where(and(eq(t.runArtifacts.runId, runId), eq(t.runArtifacts.path, REPO_DIFF_MEMBER)))
    .get();
  return {
    source,
    evidence,
    workspaceRoot,
    repoDiff: diff ? Buffer.from(diff.head).toString("utf8") : null,
    repoDiffLength: diff?.size ?? 0,
    repoDiffCut: (diff?.size ?? 0) > REPO_DIFF_LIMIT,
  };
}
