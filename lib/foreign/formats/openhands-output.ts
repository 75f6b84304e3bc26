/**
 * OpenHands evaluation output (`output.jsonl`, written by its `evaluation/benchmarks/*` harnesses):
 * one run per line, `{instance_id, instruction, instance, history[], metadata{agent_class,
 * llm_config{model}, dataset, eval_output_dir}, test_result{git_patch}, metrics, error}`. The
 * history is an event list mapped as openhands-events.ts says; the patch is `test_result.git_patch`.
 * The benchmark is the first of `metadata.dataset`, `metadata.eval_output_dir` and the file name
 * that names a known one (benchmarkFromNames), else null. `error` says how the run stopped:
 * "maximum iteration" or a budget is the step limit, a timeout the time limit, anything else an error.
 */
import { z } from "zod";
import type { ExitReason } from "@/lib/bundle/schema";
import type { ForeignFile, ForeignFormat, ForeignRun, ForeignUsage } from "../types";
import {
  benchmarkFromNames,
  contentProbe,
  count,
  numberSteps,
  parseJsonLines,
  parseShape,
  stepTimes,
} from "./json-lines";
import { providerOf, readOpenhandsEvents, uploadedFilesRoot } from "./openhands-events";

const OutputRecordSchema = z.looseObject({
  instance_id: z.union([z.string(), z.number()]).transform(String),
  instruction: z.string().nullish(),
  history: z.array(z.unknown()),
  metadata: z
    .looseObject({
      agent_class: z.string().nullish(),
      llm_config: z.looseObject({ model: z.string().nullish() }).nullish(),
      dataset: z.string().nullish(),
      eval_output_dir: z.string().nullish(),
    })
    .nullish(),
  test_result: z.looseObject({ git_patch: z.string().nullish() }).nullish(),
  metrics: z
    .looseObject({
      accumulated_cost: z.number().nullish(),
      accumulated_token_usage: z
        .looseObject({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
        .nullish(),
      response_latencies: z.array(z.unknown()).nullish(),
    })
    .nullish(),
  error: z.string().nullish(),
  instance: z.looseObject({ problem_statement: z.string().nullish() }).nullish(),
});
type OutputRecord = z.infer<typeof OutputRecordSchema>;

export const openhandsOutput: ForeignFormat = {
  id: "openhands-output",
  label: "OpenHands evaluation output (output.jsonl)",
  readerVersion: 1,
  detect(file: ForeignFile): boolean {
    const probe = contentProbe(file);
    // Records run to hundreds of KB, so the first line rarely ends within the probe: look at its keys.
    return (
      probe.firstChar === "{" &&
      /^\s*\{\s*"[a-z_]+"\s*:/.test(probe.head) &&
      /"instance_id"\s*:/.test(probe.head) &&
      /"(history|instruction|test_result)"\s*:/.test(probe.head)
    );
  },
  read(file: ForeignFile): ForeignRun[] {
    return parseJsonLines(file).map(({ line, value }, index) =>
      runOf(parseShape(OutputRecordSchema, value, file.name, `line ${line}`), index, file.name, line),
    );
  },
};

function runOf(record: OutputRecord, index: number, file: string, line: number): ForeignRun {
  const trajectory = readOpenhandsEvents(record.history, file, `line ${line}, history`);
  const metadata = record.metadata;
  const model = metadata?.llm_config?.model ?? trajectory.model;
  const exitReason = exitReasonOf(record.error ?? null);
  const patch = record.test_result?.git_patch;
  return {
    index,
    formatVersion: null,
    task: {
      benchmark: benchmarkFromNames([metadata?.dataset, metadata?.eval_output_dir, file]),
      instanceId: record.instance_id,
      prompt: record.instruction ?? record.instance?.problem_statement ?? trajectory.prompt,
    },
    agent: {
      framework: "openhands",
      frameworkVersion: trajectory.frameworkVersion ?? versionInFolder(metadata?.eval_output_dir),
      model,
      provider: providerOf(model),
    },
    steps: numberSteps(trajectory.steps),
    hasTrajectory: true,
    patch: patch ? patch : null,
    workspaceRoot: uploadedFilesRoot(record.instruction ?? null) ?? trajectory.workspaceRoot,
    status: exitReason === "finished" ? "completed" : "failed",
    exitReason,
    error: record.error ?? null,
    ...stepTimes(trajectory.steps),
    usage: usageOf(record, trajectory.usage),
  };
}

/** How the harness's `error` says the run stopped; no error is a finished run. */
export function exitReasonOf(error: string | null): ExitReason {
  if (error === null || error === "") return "finished";
  if (/maximum iteration|max(imum)? iterations|budget|cost limit/i.test(error)) return "step_limit";
  if (/timeout|timed out/i.test(error)) return "timeout";
  return "error";
}

/** `.../openrouter-llama-4-maverick_maxiter_50_N_v0.35.0-no-hint-run_1` → `0.35.0`. */
function versionInFolder(folder: string | null | undefined): string | null {
  return (folder ? /_v(\d+\.\d+(?:\.\d+)?)/.exec(folder)?.[1] : undefined) ?? null;
}

function usageOf(record: OutputRecord, fromHistory: ForeignUsage): ForeignUsage {
  const metrics = record.metrics;
  if (!metrics) return fromHistory;
  return {
    modelCalls: metrics.response_latencies?.length ?? fromHistory.modelCalls,
    inputTokens: count(metrics.accumulated_token_usage?.prompt_tokens) || fromHistory.inputTokens,
    outputTokens: count(metrics.accumulated_token_usage?.completion_tokens) || fromHistory.outputTokens,
    costUsd: metrics.accumulated_cost ?? fromHistory.costUsd,
  };
}
