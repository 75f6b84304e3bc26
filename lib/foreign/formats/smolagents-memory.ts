/**
 * smolagents memory dumps: the JSON list `agent.memory.get_full_steps()` returns (smolagents
 * writes nothing to disk itself; a harness saves this). Each element is one step's `dict()`:
 * TaskStep `{task}`, SystemPromptStep `{system_prompt}`, PlanningStep `{plan, timing,
 * token_usage}`, ActionStep `{step_number, timing{start_time, end_time}, model_output,
 * tool_calls[{id, function{name, arguments}}], code_action, observations, error{type, message},
 * action_output, token_usage{input_tokens, output_tokens}, is_final_answer}` and FinalAnswerStep
 * `{output}`. Older releases kept `start_time`/`end_time` on the step and tool calls as
 * `{id, name, arguments}`; both are read. The accepted shape: docs/foreign-formats/smolagents.md.
 * A CodeAgent's action is `python_interpreter` called with the code as a string: it becomes a tool
 * call with arguments `{code}`; the step's observations (or its error) answer each call.
 */
import { z } from "zod";
import type { ExitReason } from "@/lib/bundle/schema";
import { ForeignFormatError, type ForeignFile, type ForeignFormat, type ForeignRun } from "../types";
import {
  contentProbe,
  count,
  isoTime,
  numberSteps,
  parseJsonDocument,
  parseShape,
  textOf,
  toolArguments,
  type UnnumberedStep,
} from "./json-lines";
import { providerOf } from "./openhands-events";

const TimingSchema = z.looseObject({ start_time: z.number().nullish(), end_time: z.number().nullish() });
const TokenUsageSchema = z.looseObject({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() });

const ToolCallSchema = z.looseObject({
  id: z.string().nullish(),
  name: z.string().nullish(),
  arguments: z.unknown().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.unknown() }).nullish(),
});
type ToolCall = z.infer<typeof ToolCallSchema>;

const StepSchema = z.looseObject({
  task: z.string().nullish(),
  system_prompt: z.string().nullish(),
  plan: z.string().nullish(),
  step_number: z.number().int().nullish(),
  timing: TimingSchema.nullish(),
  start_time: z.number().nullish(),
  end_time: z.number().nullish(),
  model_output: z.unknown().optional(),
  model_output_message: z.looseObject({ raw: z.unknown() }).nullish(),
  tool_calls: z.array(ToolCallSchema).nullish(),
  code_action: z.string().nullish(),
  observations: z.string().nullish(),
  error: z.union([z.string(), z.looseObject({ type: z.string().nullish(), message: z.unknown() })]).nullish(),
  action_output: z.unknown().optional(),
  token_usage: TokenUsageSchema.nullish(),
  is_final_answer: z.boolean().nullish(),
  output: z.unknown().optional(),
  final_answer: z.unknown().optional(),
});
type Step = z.infer<typeof StepSchema>;

/** The code interpreter a CodeAgent calls with its code as a plain string. */
const PYTHON_INTERPRETER = "python_interpreter";

export const smolagentsMemory: ForeignFormat = {
  id: "smolagents-memory",
  label: "smolagents memory (agent.memory.get_full_steps() as JSON)",
  readerVersion: 1,
  detect(file: ForeignFile): boolean {
    const probe = contentProbe(file);
    return (
      probe.firstChar === "[" &&
      /"(step_number|task_images|system_prompt)"\s*:/.test(probe.head) &&
      /"(observations|model_output|tool_calls|task)"\s*:/.test(probe.head) &&
      !/"source"\s*:\s*"(agent|user|environment)"/.test(probe.head)
    );
  },
  read(file: ForeignFile): ForeignRun[] {
    const list = parseShape(z.array(StepSchema), parseJsonDocument(file), file.name, null);
    const steps: UnnumberedStep[] = [];
    list.forEach((step, i) => steps.push(...stepsOf(step, i, file.name)));
    const timed = list.map(timingOf);
    const starts = timed.flatMap((t) => (t.start === undefined ? [] : [t.start])).sort();
    const ends = timed.flatMap((t) => ((t.end ?? t.start) ? [(t.end ?? t.start)!] : [])).sort();
    const exitReason = exitReasonOf(list);
    const lastError = list.findLast((s) => s.step_number !== undefined && s.step_number !== null)?.error;
    const model = modelOf(list);
    const modelSteps = list.filter((s) => s.model_output !== undefined && s.model_output !== null);
    return [
      {
        index: 0,
        formatVersion: null,
        task: { benchmark: null, instanceId: null, prompt: list.find((s) => typeof s.task === "string")?.task ?? null },
        agent: { framework: "smolagents", frameworkVersion: null, model, provider: providerOf(model) },
        steps: numberSteps(steps),
        hasTrajectory: true,
        patch: null,
        workspaceRoot: null,
        status: exitReason === "finished" ? "completed" : "failed",
        exitReason,
        error: exitReason === "finished" || !lastError ? null : errorText(lastError),
        startedAt: starts[0] ?? null,
        finishedAt: ends[ends.length - 1] ?? null,
        usage: {
          modelCalls: modelSteps.length,
          inputTokens: list.reduce((sum, s) => sum + count(s.token_usage?.input_tokens), 0),
          outputTokens: list.reduce((sum, s) => sum + count(s.token_usage?.output_tokens), 0),
          costUsd: null,
        },
      },
    ];
  },
};

/**
 * Finished with a final answer; smolagents ends a run that reached max_steps with an
 * AgentMaxStepsError step (the step limit); another error on the last step is an error; a dump
 * that just stops was cut short.
 */
export function exitReasonOf(list: readonly Step[]): ExitReason {
  if (list.some((s) => s.is_final_answer === true || isFinalAnswerStep(s))) return "finished";
  const last = list.findLast((s) => typeof s.step_number === "number");
  if (!last?.error) return "cancelled";
  const error = last.error;
  const type = typeof error === "string" ? "" : (error.type ?? "");
  return type === "AgentMaxStepsError" || /max steps/i.test(errorText(error)) ? "step_limit" : "error";
}

function stepsOf(step: Step, index: number, file: string): UnnumberedStep[] {
  const { start, end } = timingOf(step);
  const at = start === undefined ? {} : { timestamp: start };
  // The step's observations arrive when it ends.
  const answeredAt = end === undefined ? at : { timestamp: end };
  if (typeof step.system_prompt === "string")
    return [{ kind: "message", role: "system", text: step.system_prompt, ...at }];
  if (typeof step.task === "string") return [{ kind: "message", role: "user", text: step.task, ...at }];
  if (typeof step.plan === "string")
    return [{ kind: "message", role: "assistant", text: step.plan, ...at, ...tokens(step) }];
  if (isFinalAnswerStep(step))
    return [{ kind: "message", role: "assistant", text: textOf(step.output ?? step.final_answer), ...at }];
  if (typeof step.step_number !== "number") {
    throw new ForeignFormatError(
      file,
      `[${index}]`,
      "is not a smolagents step (none of task, system_prompt, plan, step_number, output)",
    );
  }
  const steps: UnnumberedStep[] = [];
  if (step.model_output !== undefined && step.model_output !== null) {
    steps.push({ kind: "message", role: "assistant", text: textOf(step.model_output), ...at, ...tokens(step) });
  }
  const calls = callsOf(step);
  const observation = [step.observations, step.error ? errorText(step.error) : null].filter((t) => t).join("\n");
  for (const call of calls) {
    steps.push({ kind: "tool_call", tool: call.tool, arguments: call.arguments, callId: call.callId, ...at });
    steps.push({
      kind: "observation",
      callId: call.callId,
      text: observation,
      isError: Boolean(step.error),
      ...answeredAt,
    });
  }
  if (calls.length === 0 && step.error)
    steps.push({ kind: "observation", text: observation, isError: true, ...answeredAt });
  if (step.is_final_answer === true) {
    steps.push({ kind: "message", role: "assistant", text: textOf(step.action_output), ...answeredAt });
  }
  return steps;
}

function callsOf(step: Step): { tool: string; arguments: unknown; callId: string }[] {
  const calls = (step.tool_calls ?? []).map((call: ToolCall, i) => {
    const tool = call.function?.name ?? call.name ?? "unknown";
    const raw = call.function ? call.function.arguments : call.arguments;
    const args = tool === PYTHON_INTERPRETER && typeof raw === "string" ? { code: raw } : toolArguments(raw);
    return { tool, arguments: args, callId: call.id ?? `step-${step.step_number}-${i}` };
  });
  if (calls.length === 0 && step.code_action) {
    calls.push({ tool: PYTHON_INTERPRETER, arguments: { code: step.code_action }, callId: `step-${step.step_number}` });
  }
  return calls;
}

function isFinalAnswerStep(step: Step): boolean {
  const keys = Object.keys(step);
  return keys.length > 0 && keys.every((key) => key === "output" || key === "final_answer");
}

function timingOf(step: Step): { start?: string; end?: string } {
  const start = isoTime(step.timing?.start_time ?? step.start_time);
  const end = isoTime(step.timing?.end_time ?? step.end_time);
  return { ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }) };
}

function tokens(step: Step): { inputTokens?: number; outputTokens?: number } {
  const usage = step.token_usage;
  return usage ? { inputTokens: count(usage.input_tokens), outputTokens: count(usage.output_tokens) } : {};
}

function errorText(error: NonNullable<Step["error"]>): string {
  if (typeof error === "string") return error;
  const message = textOf(error.message);
  return error.type ? `${error.type}: ${message}` : message;
}

/** The model as the first raw model response names it (`model_output_message.raw.model`). */
function modelOf(list: readonly Step[]): string | null {
  for (const step of list) {
    const raw = step.model_output_message?.raw as { model?: unknown } | null | undefined;
    if (typeof raw?.model === "string" && raw.model !== "") return raw.model;
  }
  return null;
}
