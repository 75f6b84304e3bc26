/**
 * Writes synthetic scale runs (lib/dashboard/scale-runs.ts) straight into the tables, in batches,
 * with prepared statements: 100,000 runs through the bundle importer would take a quarter hour.
 * The dashboard's derived tables are filled once per batch (bulk-facts.ts), not by the triggers.
 */
import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { mitigationOf } from "@/lib/codekit/mitigation";
import type { ScaleAgent, ScaleInstance, ScaleRun } from "@/lib/dashboard/scale-runs";
import { agentConfigId } from "./run-import";
import { ensureJudge, writeVerdicts } from "./verdicts";
import { insertRunsInBulk } from "./bulk-facts";
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
const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const BEFORE_SHA = sha(BEFORE);
const AFTER_SHA = sha(AFTER);

const INSERT_RUN = `INSERT INTO runs (id, instance_id, agent_config_id, status, exit_reason, synthetic, started_at, finished_at,
    duration_ms, step_count, model_calls, input_tokens, output_tokens, cost_usd, task_completed, files_before, files_after,
    bundle_digest, bundle_version, imported_via)
  VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, 40, 40, ?, 1, 'synthetic')
  ON CONFLICT (id) DO NOTHING`;
const INSERT_STEP = `INSERT INTO trajectory_steps (run_id, position, step_id, kind, role, text, tool_name, tool_arguments, command, exit_code, is_error, path)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const INSERT_CHANGE = `INSERT INTO file_changes (run_id, path, kind, before_sha256, after_sha256, before_size, after_size)
  VALUES (?, ?, ?, ?, ?, ?, ?)`;

/** How many runs with ids from `first` to `last` (inclusive) are stored: the seeder skips full batches. */
export function storedRunsBetween(db: Db, first: string, last: string): number {
  return db.$client
    .prepare<[string, string], { n: number }>("SELECT count(*) AS n FROM runs WHERE id BETWEEN ? AND ?")
    .get(first, last)!.n;
}

/** The stored configuration of a scale agent: its id and the row's values. */
function scaleConfig(agent: ScaleAgent) {
  const config = {
    name: agent.name,
    framework: agent.framework,
    frameworkVersion: null,
    model: agent.model,
    provider: "synthetic",
    tools: [],
    guidelines: agent.mitigation === "none" ? null : "code-kit",
    limits: {},
    options: agent.mitigation === "none" ? { synthetic: true } : { synthetic: true, mitigation: agent.mitigation },
  };
  return { id: agentConfigId(config), ...config, mitigation: mitigationOf(config.options) };
}

/**
 * Inserts the runs in one transaction; runs already present are skipped (the seed resumes).
 * Prepared statements, and the dashboard's derived rows filled once for the batch
 * (insertRunsInBulk) rather than by a trigger per row: 2,000+ runs a second instead of about 100.
 */
export function insertScaleRuns(db: Db, runs: Iterable<ScaleRun>): number {
  return insertRunsInBulk(db, () => writeScaleRuns(db, runs)).length;
}

/**
 * Writes the runs' rows (run, steps, file changes, both judges' verdicts), skipping runs already
 * stored, and returns the ids of those written in order. Call it inside a transaction; it writes
 * no derived rows itself (the triggers or insertRunsInBulk do).
 */
export function writeScaleRuns(db: Db, runs: Iterable<ScaleRun>): string[] {
  const sqlite = db.$client;
  const [insertRun, insertStep, insertChange] = [INSERT_RUN, INSERT_STEP, INSERT_CHANGE].map((q) => sqlite.prepare(q));
  const ruleJudgeId = ensureJudge(db, SCALE_RULE_JUDGE);
  const llmJudgeId = ensureJudge(db, SCALE_LLM_JUDGE);
  for (const data of [BEFORE, AFTER]) {
    db.insert(t.fileContents)
      .values({ sha256: sha(data), size: data.length, isText: true, content: data })
      .onConflictDoNothing()
      .run();
  }
  const configIds = new Map<ScaleAgent, string>();
  const ids: string[] = [];
  for (const run of runs) {
    let configId = configIds.get(run.agent);
    if (configId === undefined) {
      const config = scaleConfig(run.agent);
      db.insert(t.agentConfigs).values(config).onConflictDoNothing().run();
      configId = config.id;
      configIds.set(run.agent, configId);
    }
    const finishedAt = new Date(Date.parse(run.startedAt) + run.durationMs).toISOString();
    const added = insertRun!.run(
      run.id,
      run.instanceId,
      configId,
      run.status,
      run.exitReason,
      run.startedAt,
      finishedAt,
      run.durationMs,
      run.steps.length,
      Math.ceil(run.steps.length / 2),
      run.inputTokens,
      run.outputTokens,
      run.costUsd,
      run.taskCompleted ? 1 : 0,
      `synthetic:${run.id}`,
    );
    if (added.changes === 0) continue;
    run.steps.forEach((s, position) =>
      insertStep!.run(
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
      insertChange!.run(
        run.id,
        change.path,
        change.kind,
        change.kind === "created" ? null : BEFORE_SHA,
        change.kind === "deleted" ? null : AFTER_SHA,
        change.kind === "created" ? null : BEFORE.length,
        change.kind === "deleted" ? null : AFTER.length,
      );
    }
    writeVerdicts(db, run.id, [
      ...run.ruleVerdicts.map((verdict) => ({ judgeId: ruleJudgeId, verdict })),
      ...run.llmVerdicts.map((verdict) => ({ judgeId: llmJudgeId, verdict })),
    ]);
    ids.push(run.id);
  }
  return ids;
}
