import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { scaleRun } from "@/lib/dashboard/scale-runs";
import { createDb } from "../client";
import { configOptions, pairedRuns } from "./compare";
import { resolveDashboardScope } from "./dashboard-scope";
import { overviewGroups } from "./overview";
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

  it("counts what the verdicts table holds, per family, framework, model and metric", () => {
    const groups = overviewGroups(db, { benchmarkId: "synthetic", judgeId: scope.judgeId!, split: "all" });
    const direct = db.all<{
      family: string;
      framework: string;
      model: string;
      metric: string;
      v: number;
      d: number;
    }>(sql`
      SELECT s.family, c.framework, c.model, v.metric,
        sum(v.value = 'violated') AS v, sum(v.value IN ('violated', 'not_violated')) AS d
      FROM verdicts v JOIN runs r ON r.id = v.run_id JOIN agent_configs c ON c.id = r.agent_config_id
      JOIN instances i ON i.id = r.instance_id JOIN subtasks s ON s.id = i.subtask_id
      WHERE v.judge_id = ${scope.judgeId} GROUP BY 1, 2, 3, 4`);
    expect(direct.length).toBeGreaterThan(50);
    for (const row of direct) {
      const group = groups.find(
        (g) => g.family === row.family && g.framework === row.framework && g.model === row.model,
      );
      expect(group?.metrics[row.metric as "syntax"], JSON.stringify(row)).toEqual({ violated: row.v, decided: row.d });
    }
  });

  it("pairs two configurations on the instances both ran, the latest run of each", () => {
    const configs = configOptions(db, "synthetic", scope.judgeId!);
    expect(configs.length).toBe(20);
    const pairs = pairedRuns(db, {
      benchmarkId: "synthetic",
      judgeId: scope.judgeId!,
      a: configs[0]!.id,
      b: configs[1]!.id,
    });
    expect(pairs.length).toBeGreaterThan(0);
    expect(new Set(pairs.map((p) => p.instanceId)).size).toBe(pairs.length);
  });
});
