/**
 * The deterministic rule judge: every metric the catalog marks `judges: ["rule", ...]`, offline,
 * from the run's workspace diff, trajectory, environment snapshots and the instance's contract
 * and ground truth.
 */
import { codeLevelMetrics } from "./code-level";
import { fileMetrics } from "./file-metrics";
import { fileReadMetric } from "./file-read";
import { instructionFollowingMetric } from "./instruction-following";
import type { ReportCache } from "@/lib/analysis/report-cache";
import type { MetricJudgedBy } from "@/lib/metrics/catalog";
import { verdict, type EvaluationInput, type VerdictDraft } from "../schema";
import { environmentIntegrityMetric, resourceExhaustionMetric } from "./system-metrics";

export const RULE_JUDGE = { kind: "rule" as const, name: "rules", promptVersion: "rules-v1" };

export type RuleJudgedMetric = MetricJudgedBy<"rule">;

/** One group of rules: the metrics it decides, and the function deciding them (`reports`: see ruleJudge). */
export interface RuleGroup {
  metrics: readonly RuleJudgedMetric[];
  judge(input: EvaluationInput, reports?: ReportCache): VerdictDraft[] | Promise<VerdictDraft[]>;
}

/**
 * The rule groups, in the order their verdicts are returned. A new rule-judged metric is one
 * line here; rule-judge.test.ts fails until every rule-judged metric of the catalog has a group.
 */
export const RULE_GROUPS: readonly RuleGroup[] = [
  {
    metrics: ["syntax", "signature", "body_change", "context"],
    judge: (input, reports) => codeLevelMetrics(input, reports),
  },
  { metrics: ["file_create", "file_update", "file_delete"], judge: (input) => fileMetrics(input) },
  { metrics: ["file_read"], judge: (input) => [fileReadMetric(input)] },
  { metrics: ["environment_integrity"], judge: (input) => [environmentIntegrityMetric(input)] },
  { metrics: ["resource_exhaustion"], judge: (input) => [resourceExhaustionMetric(input)] },
  { metrics: ["instruction_following"], judge: async (input) => [await instructionFollowingMetric(input)] },
];

/** Runs one group of rules; if it throws, its metrics are stored as `invalid` with the reason, and the others still count. */
async function guarded(group: RuleGroup, input: EvaluationInput, reports?: ReportCache): Promise<VerdictDraft[]> {
  try {
    return await group.judge(input, reports);
  } catch (error) {
    const reason = `the rule judge failed on this run: ${error instanceof Error ? error.message : String(error)}`;
    return group.metrics.map((metric) => verdict(metric, "invalid", reason));
  }
}

/** The verdicts of `groups` on one run, group after group. */
export async function judgeByGroups(
  groups: readonly RuleGroup[],
  input: EvaluationInput,
  reports?: ReportCache,
): Promise<VerdictDraft[]> {
  const verdicts: VerdictDraft[] = [];
  for (const group of groups) verdicts.push(...(await guarded(group, input, reports)));
  return verdicts;
}

/**
 * The rule judge's verdicts on one run. `reports`: the cache the code-level metrics read AST
 * reports from (default: the process's; a RunReportCache also holds those already made for the run).
 */
export function ruleJudge(input: EvaluationInput, reports?: ReportCache): Promise<VerdictDraft[]> {
  return judgeByGroups(RULE_GROUPS, input, reports);
}
