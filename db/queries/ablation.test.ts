import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { bundleFilesOf } from "@/lib/bundle/write";
import { ablationRunRecord, TOY_ABLATION_BENCHMARK } from "@/lib/dashboard/ablation.fixture";
import { evaluateRuns, ruleRunJudge } from "@/lib/judge/evaluate-runs";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { createDb } from "../client";
import { ablationGroups, ablationView } from "./ablation";
import { evaluationStore, runsToEvaluate } from "./evaluation";
import { importParsedBundle } from "./run-import";
import { ensureJudge } from "./verdicts";

/** Six toy instances: none and codekit on all, tools on the first four; judged by the rule judge. */
async function seeded() {
  const db = createDb(":memory:");
  const arms = [
    ["none", 6],
    ["codekit", 6],
    ["tools", 4],
  ] as const;
  for (const [arm, count] of arms) {
    for (let i = 0; i < count; i++) {
      const record = ablationRunRecord(i, arm);
      importParsedBundle(db, parseBundle(bundleFilesOf(record), record.manifest.runId), { via: "cli" });
    }
  }
  const store = evaluationStore(db);
  const judgeId = ensureJudge(db, RULE_JUDGE);
  const judged = await evaluateRuns(store, ruleRunJudge(judgeId, store), runsToEvaluate(db, judgeId), {
    concurrency: 1,
  });
  if (judged.failures.length > 0) throw new Error(JSON.stringify(judged.failures));
  return { db, judgeId };
}

describe("ablation queries", async () => {
  const { db, judgeId } = await seeded();

  it("groups the configurations that differ only by arm; the base id is the none configuration's id", () => {
    const groups = ablationGroups(db, TOY_ABLATION_BENCHMARK, judgeId);
    expect(groups).toHaveLength(1);
    const [group] = groups;
    expect(group!.arms.map((a) => [a.arm, a.runs])).toEqual([
      ["none", 6],
      ["tools", 4],
      ["codekit", 6],
    ]);
    expect(group!.arms[0]!.configId).toBe(group!.baseId);
    expect(ablationGroups(db, "no-such-benchmark", judgeId)).toEqual([]);
  });

  it("pairs the instances every arm ran and rates them as the verdicts table says", () => {
    const { group, table } = ablationView(db, { benchmarkId: TOY_ABLATION_BENCHMARK, judgeId });
    expect(group?.arms).toHaveLength(3);
    expect(table).toMatchObject({ instances: 4, unpaired: 2, baseline: "none", scripted: true });
    const paired = ["0", "1", "2", "3"].map((i) => `%/task-${i}`);
    for (const row of table!.rows) {
      const direct = db.all<{ metric: string; v: number; d: number }>(sql`
        SELECT v.metric, sum(v.value = 'violated') AS v, sum(v.value IN ('violated', 'not_violated')) AS d
        FROM verdicts v JOIN runs r ON r.id = v.run_id
        WHERE v.judge_id = ${judgeId} AND r.id LIKE ${`toy-ablation-${row.arm}-%`}
          AND (r.instance_id LIKE ${paired[0]} OR r.instance_id LIKE ${paired[1]}
            OR r.instance_id LIKE ${paired[2]} OR r.instance_id LIKE ${paired[3]})
        GROUP BY v.metric`);
      // The toy runs are decided alike across arms, so the shared denominator is each arm's own.
      for (const metric of METRIC_IDS) {
        const counted = direct.find((d) => d.metric === metric) ?? { v: 0, d: 0 };
        expect(row.cells[metric], `${row.arm} ${metric}`).toMatchObject({ count: counted.v, of: counted.d });
      }
    }
    const codekit = table!.rows.find((r) => r.arm === "codekit")!;
    // Instances 0 and 2: codekit left no scratch file; none did on all four.
    expect(table!.rows[0]!.cells.file_create).toMatchObject({ count: 4, of: 4 });
    expect(codekit.cells.file_create).toMatchObject({ count: 2, of: 4 });
    expect(codekit.changes!.file_create).toMatchObject({ onlyBaseline: 2, onlyArm: 0 });
    expect(codekit.changes!.file_create.pValue).toBeCloseTo(0.5, 12);
    expect(codekit.tools.extract_snippet).toEqual({ offered: 4, used: 4, calls: 4 });
    expect(codekit.tools.trace_references).toEqual({ offered: 0, used: 0, calls: 0 });
    expect(codekit.usage.selectorCalls).toBe(4);
    expect(table!.rows.find((r) => r.arm === "tools")!.tools.trace_references).toMatchObject({ offered: 4, used: 0 });
  });

  it("shows the asked-for ablation and nothing for an unknown base", () => {
    const { groups } = ablationView(db, { benchmarkId: TOY_ABLATION_BENCHMARK, judgeId });
    const asked = ablationView(db, { benchmarkId: TOY_ABLATION_BENCHMARK, judgeId, baseId: groups[0]!.baseId });
    expect(asked.group?.baseId).toBe(groups[0]!.baseId);
    expect(ablationView(db, { benchmarkId: TOY_ABLATION_BENCHMARK, judgeId, baseId: "nope" })).toMatchObject({
      group: undefined,
      table: null,
    });
  });
});
