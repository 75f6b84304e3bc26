/**
 * Ablations: agent configurations that differ only in their mitigation arm, and their runs paired
 * by instance. A configuration's arm lives in `options.mitigation` (absent for none), so taking it
 * out gives the same configuration for every arm: its id (agentConfigId of the configuration
 * without the arm) is the ablation's base id, and equals the `none` configuration's own id. Name,
 * framework, version, model, provider, tools, guidelines, limits and the other options must all
 * match; a configuration with a different step limit is another ablation.
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { AgentConfig } from "@/lib/bundle/schema";
import { MITIGATIONS, type Mitigation } from "@/lib/codekit/arms";
import type { MitigationPlan } from "@/lib/codekit/mitigation";
import { prepareAblation, type AblationRun, type AblationTable } from "@/lib/dashboard/ablation";
import type { Db } from "../client";
import * as t from "../schema";
import { configOptions } from "./compare";
import { agentConfigId } from "./run-import";

export interface AblationArmConfig {
  arm: Mitigation;
  configId: string;
  /** Runs of this configuration the judge scored on the benchmark. */
  runs: number;
}

export interface AblationGroup {
  baseId: string;
  name: string;
  framework: string;
  model: string;
  /** In the order of MITIGATIONS (none first). */
  arms: AblationArmConfig[];
}

type ConfigRow = typeof t.agentConfigs.$inferSelect;

/** The ablation a configuration belongs to: the id of the same configuration without its arm. */
export function ablationBaseId(row: ConfigRow): string {
  const { mitigation: _arm, ...options } = row.options as Record<string, unknown>;
  const config: AgentConfig = {
    name: row.name,
    framework: row.framework,
    frameworkVersion: row.frameworkVersion,
    model: row.model,
    provider: row.provider,
    tools: row.tools as string[],
    guidelines: row.guidelines,
    limits: row.limits as AgentConfig["limits"],
    options,
  };
  return agentConfigId(config);
}

/** The ablation base id of a stored configuration, or null when there is no such configuration. */
export function ablationBaseOf(db: Db, configId: string): string | null {
  const row = db.select().from(t.agentConfigs).where(eq(t.agentConfigs.id, configId)).get();
  return row ? ablationBaseId(row) : null;
}

/** Configurations with judged runs on the benchmark, grouped by base; only groups of two arms or more. */
export function ablationGroups(db: Db, benchmarkId: string, judgeId: number): AblationGroup[] {
  const judged = configOptions(db, benchmarkId, judgeId);
  if (judged.length === 0) return [];
  const runsOf = new Map(judged.map((c) => [c.id, c.runs]));
  const rows = db
    .select()
    .from(t.agentConfigs)
    .where(
      inArray(
        t.agentConfigs.id,
        judged.map((c) => c.id),
      ),
    )
    .all();
  const groups = new Map<string, AblationGroup>();
  for (const row of rows) {
    const baseId = ablationBaseId(row);
    const group = groups.get(baseId) ?? {
      baseId,
      name: row.name,
      framework: row.framework,
      model: row.model,
      arms: [],
    };
    group.arms.push({ arm: row.mitigation as Mitigation, configId: row.id, runs: runsOf.get(row.id) ?? 0 });
    groups.set(baseId, group);
  }
  return [...groups.values()]
    .filter((g) => g.arms.length >= 2)
    .map((g) => ({ ...g, arms: g.arms.sort((a, b) => MITIGATIONS.indexOf(a.arm) - MITIGATIONS.indexOf(b.arm)) }))
    .sort(
      (a, b) =>
        a.framework.localeCompare(b.framework) || a.model.localeCompare(b.model) || a.name.localeCompare(b.name),
    );
}

interface LatestRow {
  configId: string;
  instanceId: string;
  runId: string;
  violatedMask: number;
  decidedMask: number;
  taskCompleted: number | null;
  scripted: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  mitigation: string | null;
}

/**
 * The latest judged run of each arm's configuration on each instance, with its usage, plan and
 * tool calls. (SQLite returns the other columns of the row holding MAX(started_at) in a GROUP BY,
 * as the compare page's pairing does; run_judge_masks_config covers the grouping.)
 */
export function ablationRuns(
  db: Db,
  q: { benchmarkId: string; judgeId: number; arms: readonly { arm: Mitigation; configId: string }[] },
): AblationRun[] {
  if (q.arms.length === 0) return [];
  const configIds = sql.join(
    q.arms.map((a) => sql`${a.configId}`),
    sql`, `,
  );
  const latest = sql`latest AS (
    SELECT agent_config_id, instance_id, run_id, violated_mask, decided_mask, task_completed, MAX(started_at)
    FROM run_judge_masks
    WHERE judge_id = ${q.judgeId} AND benchmark_id = ${q.benchmarkId} AND agent_config_id IN (${configIds})
    GROUP BY agent_config_id, instance_id)`;
  const rows = db.all<LatestRow>(sql`
    WITH ${latest}
    SELECT l.agent_config_id AS configId, l.instance_id AS instanceId, l.run_id AS runId,
      l.violated_mask AS violatedMask, l.decided_mask AS decidedMask, l.task_completed AS taskCompleted,
      r.scripted, r.model_calls AS modelCalls, r.input_tokens AS inputTokens, r.output_tokens AS outputTokens,
      r.cost_usd AS costUsd, r.mitigation
    FROM latest l JOIN runs r ON r.id = l.run_id
    ORDER BY l.instance_id, l.agent_config_id`);
  const calls = db.all<{ runId: string; tool: string; calls: number }>(sql`
    WITH ${latest}
    SELECT s.run_id AS runId, s.tool_name AS tool, count(*) AS calls
    FROM latest l JOIN trajectory_steps s ON s.run_id = l.run_id
    WHERE s.kind = 'tool_call' AND s.tool_name IS NOT NULL
    GROUP BY s.run_id, s.tool_name`);
  const callsOf = new Map<string, Record<string, number>>();
  for (const c of calls) callsOf.set(c.runId, { ...callsOf.get(c.runId), [c.tool]: c.calls });
  const armOf = new Map(q.arms.map((a) => [a.configId, a.arm]));
  return rows.map((row) => ({
    instanceId: row.instanceId,
    arm: armOf.get(row.configId)!,
    runId: row.runId,
    violatedMask: row.violatedMask,
    decidedMask: row.decidedMask,
    taskCompleted: row.taskCompleted,
    scripted: row.scripted === 1,
    modelCalls: row.modelCalls,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    costUsd: row.costUsd,
    // Validated by the bundle schema when the run was imported.
    plan: row.mitigation === null ? null : (JSON.parse(row.mitigation) as MitigationPlan),
    toolCalls: callsOf.get(row.runId) ?? {},
  }));
}

export interface AblationView {
  groups: AblationGroup[];
  /** The ablation shown: the one asked for, else the first; undefined when there is none. */
  group: AblationGroup | undefined;
  table: AblationTable | null;
}

/** What the /ablation page and its export show for a benchmark, judge and (optional) base configuration. */
export function ablationView(db: Db, q: { benchmarkId: string; judgeId: number; baseId?: string }): AblationView {
  const groups = ablationGroups(db, q.benchmarkId, q.judgeId);
  const group = q.baseId === undefined ? groups[0] : groups.find((g) => g.baseId === q.baseId);
  if (!group) return { groups, group, table: null };
  const runs = ablationRuns(db, { benchmarkId: q.benchmarkId, judgeId: q.judgeId, arms: group.arms });
  return {
    groups,
    group,
    table: prepareAblation(
      runs,
      group.arms.map((a) => a.arm),
    ),
  };
}
