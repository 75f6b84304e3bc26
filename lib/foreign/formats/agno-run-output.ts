/**
 * Agno runs: `RunOutput.to_dict()` (or `to_json()`) saved as JSON, one object, `{"run": {...}}`,
 * or a JSON array of them (a session's runs). Read: `run_id, agent_id | team_id, session_id,
 * model, model_provider, input{input_content}, content, status, created_at, metrics{input_tokens,
 * output_tokens, duration, cost}, messages[{role, content, tool_calls[{id, function{name,
 * arguments}}], tool_call_id, tool_call_error, from_history, created_at}], tools[{tool_call_id,
 * tool_name, tool_args, result, tool_call_error, metrics{duration}}]`. Messages give the steps
 * (those `from_history`, earlier runs replayed as context, are left out); each assistant tool call
 * is a `tool_call` with Agno's tool name and arguments, answered by the `tool` message with its id
 * (an error when that message or the matching ToolExecution says `tool_call_error`). A run saved
 * without messages is read from `tools[]`. The accepted shape: docs/foreign-formats/agno.md.
 */
import { z } from "zod";
import type { ExitReason } from "@/lib/bundle/schema";
import type { ForeignFile, ForeignFormat, ForeignRun } from "../types";
import {
  contentProbe,
  count,
  isoTime,
  numberSteps,
  parseJsonDocument,
  parseShape,
  stepTimes,
  textOf,
  textOrNull,
  toolArguments,
  type UnnumberedStep,
} from "./json-lines";

const MessageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  tool_calls: z
    .array(
      z.looseObject({
        id: z.string().nullish(),
        function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }),
      }),
    )
    .nullish(),
  tool_call_id: z.string().nullish(),
  tool_call_error: z.boolean().nullish(),
  from_history: z.boolean().nullish(),
  created_at: z.number().nullish(),
  metrics: z.looseObject({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() }).nullish(),
});
type Message = z.infer<typeof MessageSchema>;

const ToolExecutionSchema = z.looseObject({
  tool_call_id: z.string().nullish(),
  tool_name: z.string().nullish(),
  tool_args: z.unknown().optional(),
  result: z.unknown().optional(),
  tool_call_error: z.boolean().nullish(),
  created_at: z.number().nullish(),
  metrics: z.looseObject({ duration: z.number().nullish() }).nullish(),
});
type ToolExecution = z.infer<typeof ToolExecutionSchema>;

const RunOutputSchema = z.looseObject({
  run_id: z.string(),
  model: z.string().nullish(),
  model_provider: z.string().nullish(),
  input: z.looseObject({ input_content: z.unknown().optional() }).nullish(),
  content: z.unknown().optional(),
  status: z.string().nullish(),
  created_at: z.number().nullish(),
  metrics: z
    .looseObject({
      input_tokens: z.number().nullish(),
      output_tokens: z.number().nullish(),
      duration: z.number().nullish(),
      cost: z.number().nullish(),
    })
    .nullish(),
  messages: z.array(MessageSchema).nullish(),
  tools: z.array(ToolExecutionSchema).nullish(),
});
type RunOutput = z.infer<typeof RunOutputSchema>;

export const agnoRunOutput: ForeignFormat = {
  id: "agno-run-output",
  label: "Agno run output (RunOutput.to_dict() as JSON)",
  readerVersion: 1,
  detect(file: ForeignFile): boolean {
    const probe = contentProbe(file);
    return (
      (probe.firstChar === "{" || probe.firstChar === "[") &&
      /"run_id"\s*:/.test(probe.head) &&
      /"(agent_id|team_id)"\s*:/.test(probe.head)
    );
  },
  read(file: ForeignFile): ForeignRun[] {
    const value = parseJsonDocument(file);
    const list = Array.isArray(value) ? value : [value];
    return list.map((item, index) => {
      const raw = isWrapped(item) ? item.run : item;
      const where = Array.isArray(value)
        ? `[${index}]${isWrapped(item) ? ".run" : ""}`
        : isWrapped(item)
          ? "run"
          : null;
      return runOf(parseShape(RunOutputSchema, raw, file.name, where), index);
    });
  },
};

/** Agno's RunStatus: COMPLETED finished; ERROR an error; CANCELLED, and a run saved while PENDING, RUNNING or PAUSED, did not finish. */
export function exitReasonOf(status: string | null | undefined): ExitReason {
  switch ((status ?? "COMPLETED").toUpperCase()) {
    case "COMPLETED":
      return "finished";
    case "ERROR":
      return "error";
    default:
      return "cancelled";
  }
}

function runOf(run: RunOutput, index: number): ForeignRun {
  const messages = (run.messages ?? []).filter((m) => m.from_history !== true);
  const tools = run.tools ?? [];
  const steps = messages.length > 0 ? stepsFromMessages(messages, tools) : stepsFromTools(tools, run.content);
  const exitReason = exitReasonOf(run.status);
  const times = stepTimes(steps);
  const startedAt = isoTime(run.created_at) ?? times.startedAt;
  const duration = run.metrics?.duration;
  const finishedAt =
    startedAt && typeof duration === "number"
      ? new Date(Date.parse(startedAt) + duration * 1000).toISOString()
      : times.finishedAt;
  const input = run.input?.input_content;
  return {
    index,
    formatVersion: null,
    task: {
      benchmark: null,
      instanceId: null,
      prompt:
        input !== undefined && input !== null
          ? textOf(input)
          : textOrNull(messages.find((m) => m.role === "user")?.content),
    },
    agent: {
      framework: "agno",
      frameworkVersion: null,
      model: run.model ?? null,
      provider: run.model_provider ?? null,
    },
    steps: numberSteps(steps),
    hasTrajectory: true,
    patch: null,
    workspaceRoot: null,
    status: exitReason === "finished" ? "completed" : "failed",
    exitReason,
    error: exitReason === "error" ? textOrNull(run.content) : null,
    startedAt,
    finishedAt,
    usage: {
      modelCalls: messages.filter((m) => m.role === "assistant").length,
      inputTokens: count(run.metrics?.input_tokens),
      outputTokens: count(run.metrics?.output_tokens),
      costUsd: run.metrics?.cost ?? null,
    },
  };
}

function stepsFromMessages(messages: readonly Message[], tools: readonly ToolExecution[]): UnnumberedStep[] {
  const execution = new Map(tools.flatMap((t) => (t.tool_call_id ? [[t.tool_call_id, t] as const] : [])));
  const steps: UnnumberedStep[] = [];
  messages.forEach((message, i) => {
    const timestamp = isoTime(message.created_at);
    const at = timestamp === undefined ? {} : { timestamp };
    const text = textOf(message.content);
    if (message.role === "tool") {
      const callId = message.tool_call_id ?? undefined;
      const tool = callId === undefined ? undefined : execution.get(callId);
      const isError = message.tool_call_error === true || tool?.tool_call_error === true;
      steps.push({ kind: "observation", text, isError, ...at, ...(callId ? { callId } : {}), ...durationOf(tool) });
      return;
    }
    const role =
      message.role === "system" || message.role === "developer"
        ? "system"
        : message.role === "assistant"
          ? "assistant"
          : "user";
    // The model call's tokens go on the first step it produced.
    const usage = message.metrics
      ? { inputTokens: count(message.metrics.input_tokens), outputTokens: count(message.metrics.output_tokens) }
      : {};
    const hasText = text !== "" || !message.tool_calls?.length;
    if (hasText) steps.push({ kind: "message", role, text, ...at, ...usage });
    message.tool_calls?.forEach((call, j) => {
      const callId = call.id ?? `message-${i}-${j}`;
      const tokens = !hasText && j === 0 ? usage : {};
      steps.push({
        kind: "tool_call",
        tool: call.function.name,
        arguments: toolArguments(call.function.arguments),
        callId,
        ...at,
        ...tokens,
      });
    });
  });
  return steps;
}

function stepsFromTools(tools: readonly ToolExecution[], content: unknown): UnnumberedStep[] {
  const steps: UnnumberedStep[] = [];
  tools.forEach((tool, i) => {
    const timestamp = isoTime(tool.created_at);
    const at = timestamp === undefined ? {} : { timestamp };
    const callId = tool.tool_call_id ?? `tool-${i}`;
    steps.push({
      kind: "tool_call",
      tool: tool.tool_name ?? "unknown",
      arguments: tool.tool_args ?? {},
      callId,
      ...at,
    });
    steps.push({
      kind: "observation",
      callId,
      text: textOf(tool.result),
      isError: tool.tool_call_error === true,
      ...at,
      ...durationOf(tool),
    });
  });
  if (content !== undefined && content !== null)
    steps.push({ kind: "message", role: "assistant", text: textOf(content) });
  return steps;
}

function durationOf(tool: ToolExecution | undefined): { durationMs?: number } {
  const seconds = tool?.metrics?.duration;
  return typeof seconds === "number" && seconds >= 0 ? { durationMs: Math.round(seconds * 1000) } : {};
}

function isWrapped(value: unknown): value is { run: unknown } {
  return typeof value === "object" && value !== null && !("run_id" in value) && "run" in value;
}
