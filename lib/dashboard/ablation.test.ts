import { describe, expect, it } from "vitest";
import type { Mitigation } from "@/lib/codekit/arms";
import type { MitigationPlan } from "@/lib/codekit/mitigation";
import { metricBit } from "@/lib/metrics/catalog";
import { baselineArm, prepareAblation, toolUseOf, usageOf, type AblationRun } from "./ablation";
import { ablationExportRows, ablationTextLines } from "./ablation-report";

const read = metricBit("file_read");
const ctx = metricBit("context");
const syntax = metricBit("syntax");

function run(instance: number, arm: Mitigation, violated: number, extra: Partial<AblationRun> = {}): AblationRun {
  return {
    instanceId: `i${instance}`,
    arm,
    runId: `${arm}-${instance}`,
    violatedMask: violated,
    decidedMask: read | ctx,
    taskCompleted: 1,
    scripted: false,
    modelCalls: 3,
    inputTokens: 100,
    outputTokens: 10,
    costUsd: 0.01,
    plan: null,
    toolCalls: {},
    ...extra,
  };
}

function plan(tools: MitigationPlan["tools"], selector: MitigationPlan["selector"] = null): MitigationPlan {
  return { arm: "codekit", rules: [], tools, guard: false, selector };
}

const selector = (over: Partial<NonNullable<MitigationPlan["selector"]>>): MitigationPlan["selector"] => ({
  source: "model",
  promptVersion: "v1",
  provider: "gemini",
  model: "m",
  cached: false,
  inputTokens: 50,
  outputTokens: 5,
  costUsd: 0.002,
  error: null,
  reason: null,
  ...over,
});

describe("prepareAblation", () => {
  it("rates each arm on the instances every arm ran, with McNemar's exact p against none", () => {
    // file_read: none violates on all 10 instances; codekit on 1 of them -> b = 9 (only none), c = 0.
    // context: only none on 1 instance, only codekit on 9 -> b = 1, c = 9, p = 22/1024.
    const runs: AblationRun[] = [];
    for (let i = 0; i < 10; i++) {
      runs.push(run(i, "none", read | (i === 0 ? ctx : 0)));
      runs.push(run(i, "codekit", (i === 0 ? read : 0) | (i === 0 ? 0 : ctx)));
    }
    runs.push(run(99, "none", read)); // codekit never ran instance 99: left out
    const table = prepareAblation(runs, ["none", "codekit"]);
    expect(table).toMatchObject({ baseline: "none", instances: 10, unpaired: 1, scripted: false });
    const [none, codekit] = table.rows;
    expect(none!.cells.file_read).toMatchObject({ count: 10, of: 10, rate: 1 });
    expect(none!.cells.context).toMatchObject({ count: 1, of: 10 });
    expect(none!.cells.syntax).toMatchObject({ count: 0, of: 0, rate: null });
    expect(none!.changes).toBeNull();
    expect(codekit!.cells.file_read).toMatchObject({ count: 1, of: 10 });
    expect(codekit!.changes!.file_read).toMatchObject({ onlyBaseline: 9, onlyArm: 0 });
    expect(codekit!.changes!.file_read.delta).toBeCloseTo(-0.9);
    expect(codekit!.changes!.file_read.pValue).toBeCloseTo(2 / 512, 12); // 2 * (1/2)^9
    expect(codekit!.changes!.context).toMatchObject({ onlyBaseline: 1, onlyArm: 9 });
    expect(codekit!.changes!.context.pValue).toBeCloseTo(0.021484375, 12);
    expect(codekit!.changes!.syntax).toMatchObject({ delta: null, pValue: null });
    // The average runs over the metrics with data only (file_read and context here).
    expect(none!.average).toBeCloseTo((1 + 0.1) / 2);
    expect(codekit!.average).toBeCloseTo((0.1 + 0.9) / 2);
    expect(codekit!.averageDelta).toBeCloseTo(0.5 - 0.55);
  });

  it("gives a column one denominator: the instances every arm decided the metric on", () => {
    const runs = [
      run(1, "none", syntax, { decidedMask: syntax | read }),
      run(1, "tools", 0, { decidedMask: read }), // syntax not applicable for this arm's run
      run(2, "none", 0, { decidedMask: syntax | read }),
      run(2, "tools", syntax, { decidedMask: syntax | read }),
    ];
    const table = prepareAblation(runs, ["none", "tools"]);
    for (const row of table.rows) expect(row.cells.syntax.of).toBe(1);
    expect(table.rows[1]!.changes!.syntax).toMatchObject({ onlyBaseline: 0, onlyArm: 1, pValue: 1 });
    expect(table.rows[1]!.changes!.syntax.delta).toBeCloseTo(1);
  });

  it("counts task completion where every arm's completion is known, with its own McNemar test", () => {
    const runs = [
      ...[0, 1, 2, 3, 4].flatMap((i) => [
        run(i, "none", 0, { taskCompleted: 0 }),
        run(i, "codekit", 0, { taskCompleted: 1 }),
      ]),
      run(5, "none", 0, { taskCompleted: null }),
      run(5, "codekit", 0, { taskCompleted: 1 }),
    ];
    const [none, codekit] = prepareAblation(runs, ["none", "codekit"]).rows;
    expect(none!.task).toMatchObject({ count: 0, of: 5 });
    expect(codekit!.task).toMatchObject({ count: 5, of: 5, rate: 1 });
    expect(codekit!.taskChange).toMatchObject({ onlyBaseline: 0, onlyArm: 5 });
    expect(codekit!.taskChange!.pValue).toBeCloseTo(0.0625, 12);
  });

  it("marks a table with scripted runs", () => {
    const table = prepareAblation([run(1, "none", 0, { scripted: true }), run(1, "rules", 0)], ["none", "rules"]);
    expect(table.scripted).toBe(true);
    expect(table.rows.map((r) => r.scripted)).toEqual([1, 0]);
  });

  it("compares with the first arm when none is not shown", () => {
    expect(baselineArm(["rules", "codekit"])).toBe("rules");
    expect(baselineArm(["codekit", "none"])).toBe("none");
  });
});

describe("usageOf", () => {
  it("adds the selector's calls, tokens and cost to the agent's; a cached answer spends no call", () => {
    const usage = usageOf([
      run(1, "codekit", 0, { plan: plan([], selector({})) }),
      run(2, "codekit", 0, { plan: plan([], selector({ cached: true, inputTokens: 0, outputTokens: 0, costUsd: 0 })) }),
      run(3, "codekit", 0, {
        plan: plan(
          [],
          selector({ source: "fallback", provider: null, model: null, inputTokens: 0, outputTokens: 0, costUsd: 0 }),
        ),
      }),
    ]);
    expect(usage).toMatchObject({ agentCalls: 9, selectorCalls: 1, inputTokens: 350, outputTokens: 35 });
    expect(usage.costUsd).toBeCloseTo(0.032);
  });

  it("counts runs whose cost is unknown and keeps the known part", () => {
    const usage = usageOf([run(1, "none", 0, { costUsd: null }), run(2, "none", 0)]);
    expect(usage.costUnknownRuns).toBe(1);
    expect(usage.costUsd).toBeCloseTo(0.01);
    expect(usageOf([run(1, "none", 0, { costUsd: null })]).costUsd).toBeNull();
  });
});

describe("toolUseOf", () => {
  it("counts runs offered a tool, runs that called it under any agent's name for it, and the calls", () => {
    const uses = toolUseOf([
      run(1, "codekit", 0, {
        plan: plan(["extract_snippet", "modify_function"]),
        toolCalls: { extract_snippet: 2, mcp__codekit__modify_function: 1, read_file: 7 },
      }),
      run(2, "codekit", 0, { plan: plan(["extract_snippet"]), toolCalls: { "codekit.extract_snippet": 1 } }),
      run(3, "none", 0, { toolCalls: { trace_references: 1 } }),
    ]);
    expect(uses.extract_snippet).toEqual({ offered: 2, used: 2, calls: 3 });
    expect(uses.modify_function).toEqual({ offered: 1, used: 1, calls: 1 });
    expect(uses.trace_references).toEqual({ offered: 0, used: 1, calls: 1 });
    expect(uses.remove_function).toEqual({ offered: 0, used: 0, calls: 0 });
  });
});

describe("ablation reports", () => {
  const table = prepareAblation(
    [run(1, "none", read, { scripted: true }), run(1, "codekit", 0, { scripted: true })],
    ["none", "codekit"],
  );

  it("exports one row per arm and metric, the average, task completion and each tool", () => {
    const rows = ablationExportRows(table);
    expect(rows).toHaveLength(2 * (11 + 2 + 5));
    expect(rows.find((r) => r.arm === "codekit" && r.name === "file_read")).toMatchObject({
      count: 0,
      of: 1,
      rate: 0,
      delta_vs_baseline: -1,
      mcnemar_p: 1,
    });
  });

  it("prints a line per arm and per metric, and says when the script decided the effect", () => {
    const text = ablationTextLines(table).join("\n");
    expect(text).toMatch(/none {5}average 50\.0%/);
    expect(text).toMatch(/codekit {2}average 0\.0% \(-50\.0 pt\)/);
    expect(text).toMatch(/File Read .*none 100\.0% \| codekit 0\.0% p=1\.000/);
    expect(text).toMatch(/scripted: the mock model's script decides these effects/);
  });
});
