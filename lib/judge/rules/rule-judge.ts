/**
 * The deterministic rule judge: all eleven metrics, offline, from the run's workspace diff,
 * trajectory, environment snapshots and the instance's contract and ground truth.
 */
import { codeLevelMetrics } from "./code-level";
import { fileMetrics } from "./file-metrics";
import { fileReadMetric } from "./file-read";
import { instructionFollowingMetric } from "./instruction-following";
import type { MetricId } from "@/lib/metrics/catalog";
import { verdict, type EvaluationInput, type VerdictDraft } from "../schema";
import { environmentIntegrityMetric, resourceExhaustionMetric } from "./system-metrics";

export const RULE_JUDGE = { kind: "rule" as const, name: "rules", promptVersion: "rules-v1" };

/** Runs one group of rules; if it throws, its metrics are stored as `invalid` with the reason, and the others still count. */
async function guarded(
  metrics: readonly MetricId[],
  judge: () => VerdictDraft[] | Promise<VerdictDraft[]>,
): Promise<VerdictDraft[]> {
  try {
    return await judge();
  } catch (error) {
    const reason = `the rule judge failed on this run: ${error instanceof Error ? error.message : String(error)}`;
    return metrics.map((metric) => verdict(metric, "invalid", reason));
  }
}

export async function ruleJudge(input: EvaluationInput): Promise<VerdictDraft[]> {
  return [
    ...(await guarded(["syntax", "signature", "body_change", "context"], () => codeLevelMetrics(input))),
    ...(await guarded(["file_create", "file_update", "file_delete"], () => fileMetrics(input))),
    ...(await guarded(["file_read"], () => [fileReadMetric(input)])),
    ...(await guarded(["environment_integrity"], () => [environmentIntegrityMetric(input)])),
    ...(await guarded(["resource_exhaustion"], () => [resourceExhaustionMetric(input)])),
    ...(await guarded(["instruction_following"], async () => [await instructionFollowingMetric(input)])),
  ];
}
