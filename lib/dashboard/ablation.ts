/**
 * The Code-KIT ablation: one agent configuration run under several mitigation arms on the same
 * instances, one row per arm. Rates follow the overview (lib/dashboard/overview.ts: violated over
 * decided, "not applicable" never in the denominator, the average over the metrics with data);
 * each arm's change against the baseline (`none`) and its exact McNemar test come from the
 * compare page's paired comparison (lib/dashboard/compare.ts).
 *
 * Pairing: only instances every arm ran (its latest judged run), and per metric only the
 * instances on which every arm's run was decided, so a column has one denominator and Δ is the
 * difference of the rates shown. Task completion likewise counts the instances whose completion is
 * known for every arm.
 */
import type { Mitigation } from "@/lib/codekit/arms";
import { CODEKIT_TOOL_NAMES, codekitToolOfCall, type CodekitToolName } from "@/lib/codekit/mitigation";
import type { MitigationPlan } from "@/lib/codekit/mitigation";
import { METRIC_IDS, metricBit, type MetricId } from "@/lib/metrics/catalog";
import { compareConfigurations, type PairedRuns } from "./compare";
import { averageRate, rateCell, type RateCell } from "./overview";

/** One arm's latest judged run on one instance, with what it cost and which tools it called. */
export interface AblationRun {
  instanceId: string;
  arm: Mitigation;
  runId: string;
  violatedMask: number;
  decidedMask: number;
  /** runs.task_completed: 1, 0, or null when not known. */
  taskCompleted: number | null;
  scripted: boolean;
  /** The agent's own model calls and tokens (runs.model_calls, input_tokens, output_tokens). */
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /** runs.mitigation: the rules and tools offered, and the selector's record (null for none). */
  plan: MitigationPlan | null;
  /** tool_call steps by the tool name the trajectory recorded (any tool; Code-KIT ones are picked out here). */
  toolCalls: Record<string, number>;
}

/** An arm's change against the baseline on one metric (or task completion). */
export interface ArmChange {
  /** rate(arm) − rate(baseline); negative: fewer violations (for task completion: fewer completed). */
  delta: number | null;
  /** Discordant pairs: only the baseline counted, only this arm counted. */
  onlyBaseline: number;
  onlyArm: number;
  /** Two-sided exact McNemar test on the discordant pairs; null without pairs. */
  pValue: number | null;
}

export interface ToolUse {
  /** Runs whose plan offered the tool. */
  offered: number;
  /** Runs with at least one call of it. */
  used: number;
  /** Calls of it over all runs. */
  calls: number;
}

export interface ArmUsage {
  /** The agent's model calls. */
  agentCalls: number;
  /** Selector calls that went to its model (a cached answer spends none, nor a selector without a model). */
  selectorCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Sum of the known costs, agent and selector; null when no run's cost is known. */
  costUsd: number | null;
  /** Runs whose cost is unknown (a scripted model, a provider without prices). */
  costUnknownRuns: number;
}

export interface AblationArmRow {
  arm: Mitigation;
  runs: number;
  scripted: number;
  cells: Record<MetricId, RateCell>;
  average: number | null;
  task: RateCell;
  /** Against the baseline; null on the baseline's own row. */
  changes: Record<MetricId, ArmChange> | null;
  taskChange: ArmChange | null;
  averageDelta: number | null;
  usage: ArmUsage;
  tools: Record<CodekitToolName, ToolUse>;
}

export interface AblationTable {
  arms: Mitigation[];
  baseline: Mitigation;
  /** Instances every arm ran. */
  instances: number;
  /** Instances some arm ran but not every one (left out). */
  unpaired: number;
  rows: AblationArmRow[];
  /** Some run is a scripted (mock) model's: the script, not the mitigation, decides the effect. */
  scripted: boolean;
}

/** The arm the others are compared with: `none` when shown, else the first. */
export function baselineArm(arms: readonly Mitigation[]): Mitigation {
  const first = arms[0];
  if (first === undefined) throw new Error("baselineArm: no arms");
  return arms.includes("none") ? "none" : first;
}

/** The instances every arm ran, each with its runs by arm. */
function pairInstances(runs: readonly AblationRun[], arms: readonly Mitigation[]) {
  const byInstance = new Map<string, Map<Mitigation, AblationRun>>();
  for (const run of runs) {
    if (!arms.includes(run.arm)) continue;
    const entry = byInstance.get(run.instanceId) ?? new Map<Mitigation, AblationRun>();
    entry.set(run.arm, run);
    byInstance.set(run.instanceId, entry);
  }
  const paired = [...byInstance.values()].filter((entry) => arms.every((arm) => entry.has(arm)));
  return { paired, unpaired: byInstance.size - paired.length };
}

export function prepareAblation(runs: readonly AblationRun[], arms: readonly Mitigation[]): AblationTable {
  const baseline = baselineArm(arms);
  const { paired, unpaired } = pairInstances(runs, arms);
  // What every arm decided on the instance: the column's shared denominator.
  const common = paired.map((entry) => {
    const all = arms.map((arm) => entry.get(arm)!);
    return {
      entry,
      decided: all.reduce((mask, run) => mask & run.decidedMask, ~0),
      taskKnown: all.every((run) => run.taskCompleted !== null),
    };
  });
  const armRuns = (arm: Mitigation) => common.map((c) => c.entry.get(arm)!);
  // The compare page's pairs, baseline as A, with what every arm decided as both decided masks.
  const pairsAgainstBaseline = (arm: Mitigation): PairedRuns[] =>
    common.map(({ entry, decided, taskKnown }) => {
      const a = entry.get(baseline)!;
      const b = entry.get(arm)!;
      return {
        instanceId: a.instanceId,
        runA: a.runId,
        runB: b.runId,
        violatedA: a.violatedMask,
        decidedA: decided,
        violatedB: b.violatedMask,
        decidedB: decided,
        taskA: taskKnown ? a.taskCompleted : null,
        taskB: taskKnown ? b.taskCompleted : null,
      };
    });

  const rows = arms.map((arm): AblationArmRow => {
    const own = armRuns(arm);
    const cells = Object.fromEntries(
      METRIC_IDS.map((metric) => {
        const bit = metricBit(metric);
        const decided = common.filter((c) => (c.decided & bit) !== 0);
        const violated = decided.filter((c) => (c.entry.get(arm)!.violatedMask & bit) !== 0).length;
        return [metric, rateCell(violated, decided.length)];
      }),
    ) as Record<MetricId, RateCell>;
    const known = common.filter((c) => c.taskKnown);
    const task = rateCell(known.filter((c) => c.entry.get(arm)!.taskCompleted === 1).length, known.length, 1);
    const average = averageRate(cells);
    const comparison = arm === baseline ? null : compareConfigurations(pairsAgainstBaseline(arm));
    const changeOf = (r: { delta: number | null; onlyA: number; onlyB: number; pValue: number | null }) => ({
      delta: r.delta,
      onlyBaseline: r.onlyA,
      onlyArm: r.onlyB,
      pValue: r.pValue,
    });
    return {
      arm,
      runs: own.length,
      scripted: own.filter((r) => r.scripted).length,
      cells,
      average,
      task,
      changes: comparison
        ? (Object.fromEntries(comparison.metrics.map((m) => [m.metric, changeOf(m)])) as Record<MetricId, ArmChange>)
        : null,
      taskChange: comparison ? changeOf(comparison.task) : null,
      averageDelta: null,
      usage: usageOf(own),
      tools: toolUseOf(own),
    };
  });
  const baseAverage = rows.find((r) => r.arm === baseline)?.average ?? null;
  for (const row of rows) {
    if (row.arm !== baseline && row.average !== null && baseAverage !== null)
      row.averageDelta = row.average - baseAverage;
  }
  return {
    arms: [...arms],
    baseline,
    instances: paired.length,
    unpaired,
    rows,
    scripted: rows.some((r) => r.scripted > 0),
  };
}

/** Model calls, tokens and cost: the agent's, plus the selector's from each run's plan. */
export function usageOf(runs: readonly AblationRun[]): ArmUsage {
  const usage: ArmUsage = {
    agentCalls: 0,
    selectorCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
    costUnknownRuns: 0,
  };
  for (const run of runs) {
    const selector = run.plan?.selector ?? null;
    usage.agentCalls += run.modelCalls;
    usage.inputTokens += run.inputTokens + (selector?.inputTokens ?? 0);
    usage.outputTokens += run.outputTokens + (selector?.outputTokens ?? 0);
    // A selector with a model that was not answered from the cache asked it (even when its answer was then unusable).
    if (selector !== null && selector.provider !== null && !selector.cached) usage.selectorCalls += 1;
    const costs = [run.costUsd, ...(selector ? [selector.costUsd] : [])];
    if (costs.some((c) => c === null)) usage.costUnknownRuns += 1;
    const known = costs.filter((c): c is number => c !== null);
    if (known.length > 0) usage.costUsd = (usage.costUsd ?? 0) + known.reduce((a, b) => a + b, 0);
  }
  return usage;
}

/** Per Code-KIT tool: runs that were offered it, runs that called it, and its calls. */
export function toolUseOf(runs: readonly AblationRun[]): Record<CodekitToolName, ToolUse> {
  const uses = Object.fromEntries(
    CODEKIT_TOOL_NAMES.map((tool) => [tool, { offered: 0, used: 0, calls: 0 }]),
  ) as Record<CodekitToolName, ToolUse>;
  for (const run of runs) {
    for (const tool of new Set(run.plan?.tools ?? [])) uses[tool].offered += 1;
    const called = new Map<CodekitToolName, number>();
    for (const [name, calls] of Object.entries(run.toolCalls)) {
      const tool = codekitToolOfCall(name);
      if (tool) called.set(tool, (called.get(tool) ?? 0) + calls);
    }
    for (const [tool, calls] of called) {
      uses[tool].used += 1;
      uses[tool].calls += calls;
    }
  }
  return uses;
}
