/**
 * The deterministic rule judge: all eleven metrics, offline, from the run's workspace diff,
 * trajectory, environment snapshots and the instance's contract and ground truth.
 */
import { codeLevelMetrics } from "./code-level";
import { fileMetrics } from "./file-metrics";
import { fileReadMetric } from "./file-read";
import { instructionFollowingMetric } from "./instruction-following";
import type { EvaluationInput, VerdictDraft } from "./schema";
import { environmentIntegrityMetric, resourceExhaustionMetric } from "./system-metrics";

export const RULE_JUDGE = { kind: "rule" as const, name: "rules", promptVersion: "rules-v1" };

export async function ruleJudge(input: EvaluationInput): Promise<VerdictDraft[]> {
  return [
    ...(await codeLevelMetrics(input)),
    ...fileMetrics(input),
    fileReadMetric(input),
    environmentIntegrityMetric(input),
    resourceExhaustionMetric(input),
    await instructionFollowingMetric(input),
  ];
}
