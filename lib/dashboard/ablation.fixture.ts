/**
 * Test support: small ablations as run records (synthetic, scripted) on benchmark "toy-ablation".
 * One configuration under several arms on the same instances; the codekit arm calls
 * extract_snippet and, on even instances, leaves no scratch file behind (File Create not
 * violated), so the rule judge finds a difference between the arms.
 */
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import type { RunRecord } from "@/lib/bundle/write";
import type { Mitigation } from "@/lib/codekit/arms";
import { CODEKIT_TOOL_NAMES, type MitigationPlan } from "@/lib/codekit/mitigation";

export const TOY_ABLATION_BENCHMARK = "toy-ablation";

function planOf(arm: Mitigation): MitigationPlan | undefined {
  if (arm === "none") return undefined;
  const selector: MitigationPlan["selector"] =
    arm === "codekit"
      ? {
          source: "model",
          promptVersion: "toy",
          provider: "mock",
          model: "mock-model",
          cached: false,
          inputTokens: 300,
          outputTokens: 20,
          costUsd: 0.001,
          error: null,
          reason: "toy selection",
        }
      : null;
  return {
    arm,
    rules: arm === "tools" ? [] : [{ metric: "file_create", version: 1 }],
    tools: arm === "rules" ? [] : arm === "codekit" ? ["extract_snippet", "modify_function"] : [...CODEKIT_TOOL_NAMES],
    guard: false,
    selector,
  };
}

/** The run of `arm` on the toy instance `index` (its id: `toy-ablation/<subtask>/task-<index>`). */
export function ablationRunRecord(index: number, arm: Mitigation): RunRecord {
  const record = generatedRunRecord({ index, seed: 21, steps: 12 });
  const instance = record.instance!;
  const instanceId = `${TOY_ABLATION_BENCHMARK}/${instance.subtask}/task-${index}`;
  const after = new Map(record.after);
  const steps = [...record.steps];
  if (arm === "codekit") {
    if (index % 2 === 0) after.delete("scratch_test.py");
    steps.push({
      id: "codekit-1",
      kind: "tool_call",
      tool: "extract_snippet",
      arguments: { name: instance.groundTruth.targetQualifiedName },
      callId: "codekit-call-1",
    });
  }
  const plan = planOf(arm);
  return {
    ...record,
    after,
    steps,
    instance: { ...instance, id: instanceId, benchmark: TOY_ABLATION_BENCHMARK },
    manifest: {
      ...record.manifest,
      runId: `toy-ablation-${arm}-${index}`,
      benchmark: TOY_ABLATION_BENCHMARK,
      instanceId,
      agent: {
        ...record.manifest.agent,
        name: "toy agent / mock-model",
        model: "mock-model",
        tools: ["read_file", "write_file"],
        options: arm === "none" ? {} : { mitigation: arm },
      },
      taskCompleted: arm === "codekit" ? true : index % 3 !== 0,
      ...(plan ? { mitigation: plan } : {}),
    },
  };
}
