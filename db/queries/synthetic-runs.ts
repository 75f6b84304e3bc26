/**
 * Writes synthetic scale runs (lib/dashboard/scale-runs.ts) straight into the tables, in batches,
 * with prepared statements: 100,000 runs through the bundle importer would take a quarter hour.
 * The triggers of migration 0002 still fill the dashboard's derived tables, as for any run.
 */
import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { mitigationOf } from "@/lib/codekit/mitigation";
import type { ScaleInstance, ScaleRun } from "@/lib/dashboard/scale-runs";
import { agentConfigId } from "./run-import";
import { ensureJudge, writeVerdicts } from "./verdicts";
import { indexRunText } from "./run-search";
import type { Db } from "../client";
import * as t from "../schema";

/** The synthetic runs' judges have names of their own: their made-up verdicts never mix with a real judge's. */
export const SCALE_RULE_JUDGE = { kind: "rule" as const, name: "rules (synthetic)", promptVersion: "synthetic" };
export const SCALE_LLM_JUDGE = {
  kind: "llm" as const,
  name: "gemini-judge (synthetic)",
  provider: "gemini",
  model: "gemini-2.5-flash",
  promptVersion: "synthetic",
};

/** The benchmark's instances with the one file each task is about. */
export function scaleInstances(db: Db, benchmarkId: string): ScaleInstance[] {
  return db
    .select({
      id: t.instances.id,
      subtaskId: t.instances.subtaskId,
      family: t.subtasks.family,
      groundTruth: t.instances.groundTruth,
    })
    .from(t.instances)
    .innerJoin(t.subtasks, eq(t.subtasks.id, t.instances.subtaskId))
    .where(eq(t.instances.benchmarkId, benchmarkId))
    .orderBy(asc(t.instances.id))
    .all()
    .map((row) => ({
      id: row.id,
      subtaskId: row.subtaskId as ScaleInstance["subtaskId"],
      family: row.family as ScaleInstance["family"],
      targetFile: (row.groundTruth as { file?: string }).file ?? "module.py",
    }));
}

const BEFORE = Buffer.from("def target(value):\n    raise NotImplementedError\n");
const AFTER = Buffer.from("def target(value):\n    return [v for v in value if v is not None]\n");

/** Inserts the runs in one transaction; runs already present are skipped (the seed resumes). */
export function insertScaleRuns(db: Db, runs: readonly ScaleRun[]): number {
  const sqlite = db.$client;
  const insertStep = sqlite.prepare(
    `INSERT INTO trajectory_steps (run_id, position, step_id, kind, role, text, tool_name, tool_arguments, command, exit_code, is_error, path)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");
  let inserted = 0;
  db.transaction((tx) => {
    const ruleJudgeId = ensureJudge(tx, SCALE_RULE_JUDGE);
    const llmJudgeId = ensureJudge(tx, SCALE_LLM_JUDGE);
    for (const data of [BEFORE, AFTER]) {
      tx.insert(t.fileContents)
        .values({ sha256: sha(data), size: data.length, isText: true, content: data })
        .onConflictDoNothing()
        .run();
    }
    for (const run of runs) {
      if (tx.select({ id: t.runs.id }).from(t.runs).where(eq(t.runs.id, run.id)).get()) continue;
      const config = {
        name: run.agent.name,
        framework: run.agent.framework,
        frameworkVersion: null,
        model: run.agent.model,
        provider: "synthetic",
        tools: [],
        guidelines: run.agent.mitigation === "none" ? null : "code-kit",
        limits: {},
        options:
          run.agent.mitigation === "none" ? { synthetic: true } : { synthetic: true, mitigation: run.agent.mitigation },
      };
      const configId = agentConfigId(config);
      tx.insert(t.agentConfigs)
        .values({ id: configId, ...config, mitigation: mitigationOf(config.options) })
        .onConflictDoNothing()
        .run();
      const finishedAt = new Date(Date.parse(run.startedAt) + run.durationMs).toISOString();
      tx.insert(t.runs)
        .values({
          id: run.id,
          instanceId: run.instanceId,
          agentConfigId: configId,
          status: run.status,
          exitReason: run.exitReason,
          synthetic: true,
          startedAt: run.startedAt,
          finishedAt,
          durationMs: run.durationMs,
          stepCount: run.steps.length,
          modelCalls: Math.ceil(run.steps.length / 2),
          inputTokens: run.inputTokens,
          outputTokens: run.outputTokens,
          costUsd: run.costUsd,
          taskCompleted: run.taskCompleted,
          filesBefore: 40,
          filesAfter: 40,
          bundleDigest: `synthetic:${run.id}`,
          bundleVersion: 1,
          importedVia: "synthetic",
        })
        .run();
      run.steps.forEach((s, position) =>
        insertStep.run(
          run.id,
          position,
          s.stepId,
          s.kind,
          s.role,
          s.text,
          s.toolName,
          s.toolArguments === null ? null : JSON.stringify(s.toolArguments),
          s.command,
          s.exitCode,
          s.exitCode === null ? null : s.exitCode === 0 ? 0 : 1,
          s.path,
        ),
      );
      for (const change of run.changes) {
        tx.insert(t.fileChanges)
          .values({
            runId: run.id,
            path: change.path,
            kind: change.kind,
            beforeSha256: change.kind === "created" ? null : sha(BEFORE),
            afterSha256: change.kind === "deleted" ? null : sha(AFTER),
            beforeSize: change.kind === "created" ? null : BEFORE.length,
            afterSize: change.kind === "deleted" ? null : AFTER.length,
          })
          .run();
      }
      writeVerdicts(db, run.id, [
        ...run.ruleVerdicts.map((verdict) => ({ judgeId: ruleJudgeId, verdict })),
        ...run.llmVerdicts.map((verdict) => ({ judgeId: llmJudgeId, verdict })),
      ]);
      indexRunText(tx, run.id);
      inserted += 1;
    }
  });
  return inserted;
}
