import { and, asc, eq, sql } from "drizzle-orm";
import type { Mitigation } from "@/lib/codekit/arms";
import type { PairedRuns } from "@/lib/dashboard/compare";
import type { Db } from "../client";
import * as t from "../schema";

export interface ConfigOption {
  id: string;
  name: string;
  framework: string;
  model: string;
  mitigation: Mitigation;
  runs: number;
}

/**
 * Agent configurations with runs the judge scored on the benchmark. Summed per configuration from
 * metric_counts' run rows (bit -1; the judged runs counted per combination by triggers) in one pass
 * over the judge's and benchmark's rows, not counted over every judged run.
 */
export function configOptions(db: Db, benchmarkId: string, judgeId: number): ConfigOption[] {
  const mc = t.metricCounts;
  const runs = new Map(
    db
      .select({ id: mc.agentConfigId, runs: sql<number>`sum(${mc.runs})`.mapWith(Number) })
      .from(mc)
      .where(and(eq(mc.judgeId, judgeId), eq(mc.benchmarkId, benchmarkId), eq(mc.bit, -1)))
      .groupBy(mc.agentConfigId)
      .all()
      .map((row) => [row.id, row.runs]),
  );
  return db
    .select({
      id: t.agentConfigs.id,
      name: t.agentConfigs.name,
      framework: t.agentConfigs.framework,
      model: t.agentConfigs.model,
      mitigation: t.agentConfigs.mitigation,
    })
    .from(t.agentConfigs)
    .orderBy(asc(t.agentConfigs.framework), asc(t.agentConfigs.model), asc(t.agentConfigs.name))
    .all()
    .flatMap((c) => {
      const n = runs.get(c.id) ?? 0;
      return n > 0 ? [{ ...c, runs: n }] : [];
    });
}

/**
 * For each instance both configurations ran, the judge's masks on the latest judged run of each
 * (ties: the greater run id). One index seek per instance and configuration (the last entry of
 * run_judge_masks_config for it), not a scan of both configurations' runs: at 1,000,000 runs
 * that scan read 100,000 index entries, 136 ms.
 */
export function pairedRuns(db: Db, q: { benchmarkId: string; judgeId: number; a: string; b: string }): PairedRuns[] {
  const latest = (config: string) => sql`(
    SELECT rowid FROM run_judge_masks
    WHERE judge_id = ${q.judgeId} AND agent_config_id = ${config} AND benchmark_id = ${q.benchmarkId} AND instance_id = i.id
    ORDER BY started_at DESC, run_id DESC LIMIT 1)`;
  // MATERIALIZED: flattened into the joins, the seeks ran once per pair of instances (3 s).
  return db.all<PairedRuns>(sql`
    WITH latest AS MATERIALIZED (
      SELECT i.id AS instance_id, ${latest(q.a)} AS a, ${latest(q.b)} AS b
      FROM instances i WHERE i.benchmark_id = ${q.benchmarkId})
    SELECT l.instance_id AS instanceId, a.run_id AS runA, b.run_id AS runB,
      a.violated_mask AS violatedA, a.decided_mask AS decidedA, b.violated_mask AS violatedB, b.decided_mask AS decidedB,
      a.task_completed AS taskA, b.task_completed AS taskB
    FROM latest l
    JOIN run_judge_masks a ON a.rowid = l.a
    JOIN run_judge_masks b ON b.rowid = l.b
    ORDER BY l.instance_id`);
}
