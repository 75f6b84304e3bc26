/**
 * Task completion's reads and writes (lib/task-check): which runs lack a check, everything a check
 * reads about a run (its final workspace rebuilt from the stored after-manifest, whose every file's
 * content is in file_contents: the repository snapshot's and the run's changed files), and storing
 * a result, mirrored into runs.task_completed for the dashboard.
 */
import { and, eq, like, sql } from "drizzle-orm";
import { BUNDLE_MEMBERS } from "@/lib/bundle/schema";
import type { RebuiltWorkspace, TaskCheckInput, TaskCheckResult } from "@/lib/task-check/schema";
import { TASK_CHECKER_VERSION } from "@/lib/task-check/schema";
import type { Db } from "../client";
import * as t from "../schema";
import { loadEvaluationInput } from "./evaluation";
import { instanceWorkspaceSource } from "./instance-workspace";
import { storedWorkspaceManifest, type WorkspaceMember } from "./workspace-manifests";

/** Runs without a task check (every run with `force`); `pattern` filters run ids (`*` matches any text). */
export function runsToCheck(db: Db, options: { pattern?: string; force?: boolean } = {}): string[] {
  const pattern = options.pattern ? options.pattern.replace(/\*/g, "%") : "%";
  return db
    .select({ id: t.runs.id })
    .from(t.runs)
    .leftJoin(t.taskChecks, eq(t.taskChecks.runId, t.runs.id))
    .where(options.force ? like(t.runs.id, pattern) : and(like(t.runs.id, pattern), sql`${t.taskChecks.runId} IS NULL`))
    .orderBy(t.runs.id)
    .all()
    .map((r) => r.id);
}

function artifactContent(db: Db, runId: string, member: string): Buffer | null {
  return (
    db
      .select({ content: t.fileContents.content })
      .from(t.runArtifacts)
      .innerJoin(t.fileContents, eq(t.fileContents.sha256, t.runArtifacts.sha256))
      .where(and(eq(t.runArtifacts.runId, runId), eq(t.runArtifacts.path, member)))
      .get()?.content ?? null
  );
}

/** A workspace from one of the run's stored manifests, each file's content looked up by hash. */
function rebuildWorkspace(db: Db, runId: string, member: WorkspaceMember): RebuiltWorkspace | string {
  const manifest = storedWorkspaceManifest(db, runId, member);
  if (!manifest) return `the run's ${member} is not stored`;
  const content = db.$client.prepare<[string], { content: Buffer }>(
    "SELECT content FROM file_contents WHERE sha256 = ?",
  );
  const files: RebuiltWorkspace = new Map();
  for (const entry of manifest.files) {
    const row = entry.contentOmitted || !entry.sha256 ? undefined : content.get(entry.sha256);
    files.set(entry.path, row ? { data: row.content, mode: entry.mode } : null);
  }
  return files;
}

/** The bundle's own claim (manifest.json `taskCompleted`), null when it made none. */
function claimOf(db: Db, runId: string): boolean | null {
  const manifest = artifactContent(db, runId, BUNDLE_MEMBERS.manifest);
  if (!manifest) return null;
  const claimed = (JSON.parse(manifest.toString("utf8")) as { taskCompleted?: unknown }).taskCompleted;
  return typeof claimed === "boolean" ? claimed : null;
}

export function loadTaskCheckInput(db: Db, runId: string): TaskCheckInput & { claimed: boolean | null } {
  const input = loadEvaluationInput(db, runId);
  const instanceId = db.select({ id: t.runs.instanceId }).from(t.runs).where(eq(t.runs.id, runId)).get()!.id;
  const recorded = input.evidence.workspace === "snapshot";
  const unrecorded = `the run was recorded without its full workspace (workspace evidence: ${input.evidence.workspace})`;
  return {
    runId,
    instance: { id: instanceId, subtask: input.subtask, contract: input.contract, groundTruth: input.groundTruth },
    framework: input.framework,
    steps: input.steps,
    finalAnswer: input.finalAnswer,
    before: recorded ? rebuildWorkspace(db, runId, BUNDLE_MEMBERS.workspaceBefore) : unrecorded,
    after: recorded ? rebuildWorkspace(db, runId, BUNDLE_MEMBERS.workspaceAfter) : unrecorded,
    original: () => {
      try {
        return instanceWorkspaceSource(db, instanceId).base;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    claimed: claimOf(db, runId),
  };
}

/**
 * Stores a run's check (replacing an earlier one) and mirrors it into runs.task_completed: the
 * check's answer when it decided, else the bundle's claim (null when it made none). The runs
 * trigger copies it on into run_facts and run_judge_masks.
 */
export function storeTaskCheck(db: Db, runId: string, result: TaskCheckResult, claimed: boolean | null): void {
  const row = {
    runId,
    outcome: result.outcome,
    reason: result.reason,
    output: result.output,
    claimed,
    checkerVersion: TASK_CHECKER_VERSION,
    checkedAt: new Date().toISOString(),
    durationMs: result.durationMs,
  };
  const completed = result.outcome === "not_checkable" ? claimed : result.outcome === "completed";
  db.transaction((tx) => {
    tx.insert(t.taskChecks).values(row).onConflictDoUpdate({ target: t.taskChecks.runId, set: row }).run();
    tx.update(t.runs).set({ taskCompleted: completed }).where(eq(t.runs.id, runId)).run();
  });
}
