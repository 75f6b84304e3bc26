import { sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import type { OverviewGroup } from "@/lib/dashboard/overview";
import { scaleRun } from "@/lib/dashboard/scale-runs";
import { createDb } from "../client";
import { configOptions, pairedRuns } from "./compare";
import { resolveDashboardScope } from "./dashboard-scope";
import { armOptions, overviewGroups, overviewGroupsQuery } from "./overview";
import { importParsedBundle } from "./run-import";
import { insertScaleRuns, scaleInstances } from "./synthetic-runs";

/** 30 imported runs give benchmark "synthetic" its instances; 400 scale runs go on top, judged twice. */
function seeded() {
  const db = createDb(":memory:");
  for (let i = 0; i < 30; i++) {
    importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 2 })), `b${i}`), {
      via: "cli",
    });
  }
  const instances = scaleInstances(db, "synthetic");
  insertScaleRuns(
    db,
    Array.from({ length: 400 }, (_, i) => scaleRun(i, 3, instances)),
  );
  return db;
}

describe("overview and compare queries", () => {
  const db = seeded();
  const scope = resolveDashboardScope(db, {});
  if (scope.kind !== "ok" || scope.judgeId === null) throw new Error("expected judged runs");

  it("defaults to the benchmark with runs and its rule judge", () => {
    expect(scope.benchmarkId).toBe("synthetic");
    expect(scope.judges.map((j) => j.kind)).toEqual(["rule", "llm"]);
  });

  /** Violated and decided counts per family, framework, model, arm and metric, straight from the verdicts. */
  const direct = (arm?: string) =>
    db.all<{
      family: string;
      framework: string;
      model: string;
      mitigation: string;
      metric: string;
      v: number;
      d: number;
    }>(sql`
      SELECT s.family, c.framework, c.model, c.mitigation, v.metric,
        sum(v.value = 'violated') AS v, sum(v.value IN ('violated', 'not_violated')) AS d
      FROM verdicts v JOIN runs r ON r.id = v.run_id JOIN agent_configs c ON c.id = r.agent_config_id
      JOIN instances i ON i.id = r.instance_id JOIN subtasks s ON s.id = i.subtask_id
      WHERE v.judge_id = ${scope.judgeId} AND (${arm ?? null} IS NULL OR c.mitigation = ${arm ?? null})
      GROUP BY 1, 2, 3, 4, 5`);

  function expectGroupsToMatch(groups: OverviewGroup[], rows: ReturnType<typeof direct>) {
    for (const row of rows) {
      const group = groups.find(
        (g) =>
          g.family === row.family &&
          g.framework === row.framework &&
          g.model === row.model &&
          g.mitigation === row.mitigation,
      );
      expect(group?.metrics[row.metric as "syntax"], JSON.stringify(row)).toEqual({ violated: row.v, decided: row.d });
    }
  }

  it("counts what the verdicts table holds, per family, framework, model, arm and metric", () => {
    const groups = overviewGroups(db, { benchmarkId: "synthetic", judgeId: scope.judgeId!, split: "all" });
    const rows = direct();
    expect(rows.length).toBeGreaterThan(50);
    expectGroupsToMatch(groups, rows);
    const runs = db.$client
      .prepare(
        `SELECT family, framework, model, mitigation, count(*) AS runs, sum(task_completed IS 1) AS completed,
          sum(task_completed IS NOT NULL) AS known FROM run_judge_masks WHERE judge_id = ? GROUP BY 1, 2, 3, 4`,
      )
      .all(scope.judgeId!);
    expect(
      groups.map((g) => ({
        family: g.family,
        framework: g.framework,
        model: g.model,
        mitigation: g.mitigation,
        runs: g.runs,
        ...g.task,
      })),
    ).toEqual(runs);
    // seed:scale's Code-KIT variants are rows of their own beside their plain configuration.
    const smolagents = groups.filter(
      (g) => g.framework === "smolagents" && g.model === "gemini-2.5-flash" && g.family === "code_generation",
    );
    expect(smolagents.map((g) => g.mitigation).sort()).toEqual(["codekit", "none"]);
  });

  it("keeps only the runs of one arm when asked", () => {
    expect(armOptions(db)).toEqual(["none", "codekit"]);
    const filter = { benchmarkId: "synthetic", judgeId: scope.judgeId!, split: "all" as const };
    const codekit = overviewGroups(db, { ...filter, mitigation: "codekit" });
    expect(new Set(codekit.map((g) => `${g.framework}/${g.model}/${g.mitigation}`))).toEqual(
      new Set(["smolagents/gemini-2.5-flash/codekit", "openhands/gemini-2.5-flash/codekit"]),
    );
    expectGroupsToMatch(codekit, direct("codekit"));
    expect(overviewGroups(db, { ...filter, mitigation: "guard" })).toEqual([]);
  });

  it("reads metric_counts in its key order (no sort), with or without the arm filter", () => {
    const filter = { benchmarkId: "synthetic", judgeId: scope.judgeId!, split: "eval" as const };
    for (const mitigation of [undefined, "codekit" as const]) {
      const query = new SQLiteSyncDialect().sqlToQuery(overviewGroupsQuery({ ...filter, mitigation }));
      const plan = (
        db.$client.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as { detail: string }[]
      ).map((p) => p.detail);
      expect(plan, plan.join("\n")).toEqual([
        "SEARCH metric_counts USING INDEX sqlite_autoindex_metric_counts_1 (judge_id=? AND benchmark_id=?)",
      ]);
    }
  });

  it("pairs two configurations on the instances both ran, the latest run of each", () => {
    const configs = configOptions(db, "synthetic", scope.judgeId!);
    expect(configs.length).toBe(20);
    expect(configs.filter((c) => c.mitigation === "codekit").map((c) => c.name)).toEqual([
      "openhands+code-kit",
      "smolagents+code-kit",
    ]);
    const pairs = pairedRuns(db, {
      benchmarkId: "synthetic",
      judgeId: scope.judgeId!,
      a: configs[0]!.id,
      b: configs[1]!.id,
    });
    expect(pairs.length).toBeGreaterThan(0);
    expect(new Set(pairs.map((p) => p.instanceId)).size).toBe(pairs.length);
    // Each side is the configuration's latest judged run on the instance, its masks beside it;
    // the instances are those both configurations ran.
    const latest = (config: string) =>
      new Map(
        db.$client
          .prepare<[number, string], { instance_id: string; run_id: string; violated_mask: number }>(
            `SELECT instance_id, run_id, violated_mask FROM run_judge_masks m WHERE judge_id = ? AND agent_config_id = ?
              AND started_at = (SELECT max(started_at) FROM run_judge_masks WHERE judge_id = m.judge_id
                AND agent_config_id = m.agent_config_id AND instance_id = m.instance_id)`,
          )
          .all(scope.judgeId!, config)
          .map((row) => [row.instance_id, row]),
      );
    const [a, b] = [latest(configs[0]!.id), latest(configs[1]!.id)];
    expect(pairs.map((p) => [p.instanceId, p.runA, p.violatedA, p.runB, p.violatedB])).toEqual(
      [...a.keys()]
        .filter((instance) => b.has(instance))
        .sort()
        .map((instance) => {
          const [x, y] = [a.get(instance)!, b.get(instance)!];
          return [instance, x.run_id, x.violated_mask, y.run_id, y.violated_mask];
        }),
    );
  });
});
