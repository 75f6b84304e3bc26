/**
 * OpenHands event lists: the JSON array of events OpenHands saves for a session (its
 * `save_trajectory_path`, the replay files in its `tests/runtime/trajs/`). Each event is
 * `{id, timestamp, source, message, action | observation, args | content + extras, cause,
 * tool_call_metadata{function_name, tool_call_id, model_response}, llm_metrics}`; an observation
 * answers the action whose id is its `cause`. The mapping (shared with the evaluation output,
 * openhands-output.ts):
 * - `run` + its observation → one `shell` step (exit code from `extras.metadata.exit_code`; -1,
 *   OpenHands' "no exit code", is null);
 * - `read`, `edit`, `write`, `run_ipython`, `think`, `browse`... → a `tool_call` under the tool the
 *   model called (`str_replace_editor`, `execute_ipython_cell`, `think`...) with the arguments the
 *   model sent (from `model_response` when the event keeps it, else rebuilt from `args`), answered
 *   by an `observation` (an error when its text starts with `ERROR:` or it is an `error` event);
 * - `message`/`system` → messages, a `thought` before an action → an assistant message, `finish`
 *   → the final assistant message; `recall`, agent-state and condensation events are the
 *   harness's bookkeeping and are left out.
 */
import { z } from "zod";
import type { ExitReason } from "@/lib/bundle/schema";
import { NO_USAGE, type ForeignFile, type ForeignFormat, type ForeignRun, type ForeignUsage } from "../types";
import {
  contentProbe,
  count,
  durationBetween,
  isoTime,
  numberSteps,
  parseJsonDocument,
  parseShape,
  stepTimes,
  textOf,
  toolArguments,
  type UnnumberedStep,
} from "./json-lines";

const ToolCallMetadataSchema = z.looseObject({
  function_name: z.string().nullish(),
  tool_call_id: z.string().nullish(),
  model_response: z.unknown().optional(),
});

export const OpenhandsEventSchema = z.looseObject({
  id: z.number().int().nullish(),
  timestamp: z.string().nullish(),
  source: z.string().nullish(),
  message: z.string().nullish(),
  action: z.string().nullish(),
  observation: z.string().nullish(),
  cause: z.number().int().nullish(),
  args: z.record(z.string(), z.unknown()).nullish(),
  content: z.string().nullish(),
  extras: z.record(z.string(), z.unknown()).nullish(),
  tool_call_metadata: ToolCallMetadataSchema.nullish(),
  llm_metrics: z.unknown().optional(),
});
export type OpenhandsEvent = z.infer<typeof OpenhandsEventSchema>;

/** Events of the harness, not of the agent: recalled context, agent state changes, history condensation. */
const BOOKKEEPING = new Set([
  "recall",
  "change_agent_state",
  "agent_state_changed",
  "condensation",
  "condensation_request",
  "null",
]);
/** `args` keys that describe OpenHands' handling of an action, not the arguments the model sent. */
const NOT_ARGUMENTS = new Set([
  "thought",
  "impl_source",
  "translated_ipython_code",
  "is_input",
  "blocking",
  "is_static",
  "cwd",
  "hidden",
  "confirmation_state",
  "security_risk",
  "include_extra",
  "kernel_init_code",
]);
/** The tool each action comes from when the event does not name it (older logs). */
const DEFAULT_TOOL: Record<string, string> = {
  read: "str_replace_editor",
  edit: "str_replace_editor",
  run_ipython: "execute_ipython_cell",
  think: "think",
  browse: "browser",
  browse_interactive: "browser",
};

/** The tool an action came from when the event does not say: an edit without `command` is the LLM-based `edit_file`. */
function defaultTool(action: string, args: Record<string, unknown>): string {
  if (action === "edit" && (typeof args.command !== "string" || args.command === "")) return "edit_file";
  return DEFAULT_TOOL[action] ?? action;
}

export const OPENHANDS_DEFAULT_ROOT = "/workspace";

/** What the event list says about its run, besides the steps. */
export interface OpenhandsTrajectory {
  steps: UnnumberedStep[];
  finished: boolean;
  model: string | null;
  frameworkVersion: string | null;
  /** The first user message (the task). */
  prompt: string | null;
  workspaceRoot: string;
  usage: ForeignUsage;
}

/** Validates each event (errors name `where` + `[i].field`) and maps the list to our steps. */
export function readOpenhandsEvents(value: unknown, file: string, where: string | null): OpenhandsTrajectory {
  // Releases before 0.9 wrote the history as [action, observation] pairs.
  const flat = Array.isArray(value) && value.length > 0 && value.every(Array.isArray) ? value.flat() : value;
  const events = parseShape(z.array(OpenhandsEventSchema), flat, file, where);
  const observationOf = new Map<number, OpenhandsEvent>();
  for (const event of events) {
    if (event.observation && typeof event.cause === "number" && !observationOf.has(event.cause)) {
      observationOf.set(event.cause, event);
    }
  }
  const steps: UnnumberedStep[] = [];
  const answered = new Set<OpenhandsEvent>();
  let finished = false;
  for (const event of events) {
    if (event.observation) {
      if (!answered.has(event) && !BOOKKEEPING.has(event.observation)) steps.push(looseObservation(event));
      continue;
    }
    const action = event.action ?? "";
    if (BOOKKEEPING.has(action) || action === "") continue;
    const timestamp = isoTime(event.timestamp);
    const args = event.args ?? {};
    if (action === "message" || action === "system") {
      const role = action === "system" ? "system" : event.source === "user" ? "user" : "assistant";
      steps.push({ kind: "message", role, text: textOf(args.content ?? event.message), ...at(timestamp) });
      continue;
    }
    if (action === "finish") {
      finished = true;
      const text = [args.final_thought, args.thought, event.message].find((t) => typeof t === "string" && t !== "");
      steps.push({ kind: "message", role: "assistant", text: textOf(text), ...at(timestamp) });
      continue;
    }
    if (action !== "think" && typeof args.thought === "string" && args.thought.trim() !== "") {
      steps.push({ kind: "message", role: "assistant", text: args.thought, ...at(timestamp) });
    }
    const observation = typeof event.id === "number" ? observationOf.get(event.id) : undefined;
    if (observation) answered.add(observation);
    const callId =
      event.tool_call_metadata?.tool_call_id ?? (typeof event.id === "number" ? `event-${event.id}` : undefined);
    const durationMs = durationBetween(timestamp, isoTime(observation?.timestamp));
    if (action === "run") {
      steps.push({
        kind: "shell",
        command: textOf(args.command),
        exitCode: exitCodeOf(observation),
        output: observation?.content ?? "",
        timedOut: timedOut(observation),
        ...at(timestamp),
        ...(callId === undefined ? {} : { callId }),
        ...(durationMs === undefined ? {} : { durationMs }),
      });
      continue;
    }
    steps.push({
      kind: "tool_call",
      tool: event.tool_call_metadata?.function_name ?? defaultTool(action, args),
      arguments: modelArguments(event) ?? rebuiltArguments(action, args),
      ...at(timestamp),
      ...(callId === undefined ? {} : { callId }),
    });
    if (observation) {
      steps.push({
        kind: "observation",
        text: observation.content ?? observation.message ?? "",
        isError: isErrorObservation(observation),
        ...at(isoTime(observation.timestamp)),
        ...(callId === undefined ? {} : { callId }),
        ...(durationMs === undefined ? {} : { durationMs }),
      });
    }
  }
  return {
    steps,
    finished,
    model: modelOf(events),
    frameworkVersion: versionOf(events),
    prompt: promptOf(events),
    workspaceRoot: workspaceRootOf(events),
    usage: usageOf(events),
  };
}

export const openhandsEvents: ForeignFormat = {
  id: "openhands-events",
  label: "OpenHands event list (JSON)",
  readerVersion: 1,
  detect(file: ForeignFile): boolean {
    const probe = contentProbe(file);
    return (
      probe.firstChar === "[" &&
      /"source"\s*:\s*"(agent|user|environment)"/.test(probe.head) &&
      /"(action|observation)"\s*:\s*"/.test(probe.head)
    );
  },
  read(file: ForeignFile): ForeignRun[] {
    const trajectory = readOpenhandsEvents(parseJsonDocument(file), file.name, null);
    // A session saved before the agent finished (it waits for the user, or was stopped) is not an error.
    const exitReason: ExitReason = trajectory.finished ? "finished" : "cancelled";
    return [
      {
        index: 0,
        formatVersion: null,
        task: { benchmark: null, instanceId: null, prompt: trajectory.prompt },
        agent: {
          framework: "openhands",
          frameworkVersion: trajectory.frameworkVersion,
          model: trajectory.model,
          provider: providerOf(trajectory.model),
        },
        steps: numberSteps(trajectory.steps),
        hasTrajectory: true,
        patch: null,
        workspaceRoot: trajectory.workspaceRoot,
        status: exitReason === "finished" ? "completed" : "failed",
        exitReason,
        error: trajectory.finished ? null : "the event list ends without a finish action",
        ...stepTimes(trajectory.steps),
        usage: trajectory.usage,
      },
    ];
  },
};

/** `openai/gpt-4o` (litellm's provider prefix) → `openai`; null without a prefix. */
export function providerOf(model: string | null): string | null {
  const slash = model?.indexOf("/") ?? -1;
  return model && slash > 0 ? model.slice(0, slash) : null;
}

/** The directory of `<uploaded_files>\n/workspace/x\n</uploaded_files>` in a task text, if any. */
export function uploadedFilesRoot(text: string | null): string | null {
  const match = text ? /<uploaded_files>\s*(\/[^\s<]*)\s*<\/uploaded_files>/.exec(text) : null;
  return match?.[1]?.replace(/\/+$/, "") || null;
}

function at(timestamp: string | undefined): { timestamp?: string } {
  return timestamp === undefined ? {} : { timestamp };
}

function looseObservation(event: OpenhandsEvent): UnnumberedStep {
  const callId = event.tool_call_metadata?.tool_call_id;
  return {
    kind: "observation",
    text: event.content ?? event.message ?? "",
    isError: isErrorObservation(event),
    ...at(isoTime(event.timestamp)),
    ...(callId ? { callId } : {}),
  };
}

function isErrorObservation(event: OpenhandsEvent): boolean {
  return event.observation === "error" || /^\s*ERROR:/.test(event.content ?? "");
}

function metadataOf(observation: OpenhandsEvent | undefined): Record<string, unknown> {
  const metadata = observation?.extras?.metadata;
  return typeof metadata === "object" && metadata !== null ? (metadata as Record<string, unknown>) : {};
}

function exitCodeOf(observation: OpenhandsEvent | undefined): number | null {
  const code = metadataOf(observation).exit_code;
  return typeof code === "number" && Number.isInteger(code) && code >= 0 ? code : null;
}

function timedOut(observation: OpenhandsEvent | undefined): boolean {
  if (exitCodeOf(observation) !== null || observation === undefined) return false;
  const suffix = textOf(metadataOf(observation).suffix);
  return /timed out|no new output after/i.test(`${suffix}\n${observation.content ?? ""}`);
}

/** The arguments of the model's own tool call, when the event keeps the model's response. */
function modelArguments(event: OpenhandsEvent): unknown {
  const metadata = event.tool_call_metadata;
  const response = metadata?.model_response as { choices?: { message?: { tool_calls?: unknown } }[] } | undefined;
  const calls = response?.choices?.[0]?.message?.tool_calls;
  if (!Array.isArray(calls)) return undefined;
  const call = calls.find((c: { id?: unknown }) => c?.id === metadata?.tool_call_id) as
    { function?: { arguments?: unknown } } | undefined;
  return call?.function?.arguments === undefined ? undefined : toolArguments(call.function.arguments);
}

/** The model's arguments rebuilt from the action's fields (logs that keep no model response). */
function rebuiltArguments(action: string, args: Record<string, unknown>): unknown {
  if (action === "read") {
    return {
      command: "view",
      path: args.path,
      ...(Array.isArray(args.view_range) ? { view_range: args.view_range } : {}),
    };
  }
  const kept = Object.entries(args).filter(([key, value]) => !NOT_ARGUMENTS.has(key) && value !== null);
  if (action === "edit" && typeof args.command === "string" && args.command !== "") {
    // An editor edit carries the LLM-edit fields too (content, start, end), unused by it.
    return Object.fromEntries(kept.filter(([key]) => !["content", "start", "end"].includes(key)));
  }
  if (action === "think") return { thought: args.thought };
  return Object.fromEntries(kept);
}

interface ModelResponse {
  id?: unknown;
  model?: unknown;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

function modelResponses(events: readonly OpenhandsEvent[]): ModelResponse[] {
  const byId = new Map<unknown, ModelResponse>();
  for (const event of events) {
    const response = event.tool_call_metadata?.model_response;
    if (typeof response === "object" && response !== null) {
      const id = (response as ModelResponse).id ?? byId.size;
      if (!byId.has(id)) byId.set(id, response as ModelResponse);
    }
  }
  return [...byId.values()];
}

interface AccumulatedMetrics {
  accumulated_cost?: unknown;
  accumulated_token_usage?: { model?: unknown; prompt_tokens?: unknown; completion_tokens?: unknown };
}

function lastMetrics(events: readonly OpenhandsEvent[]): AccumulatedMetrics | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const metrics = events[i]?.llm_metrics;
    if (typeof metrics === "object" && metrics !== null) return metrics as AccumulatedMetrics;
  }
  return null;
}

function modelOf(events: readonly OpenhandsEvent[]): string | null {
  const fromResponse = modelResponses(events).find((r) => typeof r.model === "string")?.model;
  if (typeof fromResponse === "string") return fromResponse;
  const fromMetrics = lastMetrics(events)?.accumulated_token_usage?.model;
  return typeof fromMetrics === "string" && fromMetrics !== "default" ? fromMetrics : null;
}

function versionOf(events: readonly OpenhandsEvent[]): string | null {
  const version = events.find((e) => e.action === "system")?.args?.openhands_version;
  return typeof version === "string" ? version : null;
}

function promptOf(events: readonly OpenhandsEvent[]): string | null {
  const first = events.find((e) => e.action === "message" && e.source === "user");
  return first ? textOf(first.args?.content ?? first.message) : null;
}

function workspaceRootOf(events: readonly OpenhandsEvent[]): string {
  const uploaded = uploadedFilesRoot(promptOf(events));
  if (uploaded) return uploaded;
  const firstRun = events.find((e) => e.observation === "run" && typeof metadataOf(e).working_dir === "string");
  const workingDir = firstRun ? metadataOf(firstRun).working_dir : null;
  return typeof workingDir === "string" && workingDir.startsWith("/") ? workingDir : OPENHANDS_DEFAULT_ROOT;
}

/** The usage the last event's running totals give, else the sum over the distinct model responses. */
function usageOf(events: readonly OpenhandsEvent[]): ForeignUsage {
  const responses = modelResponses(events);
  const metrics = lastMetrics(events);
  if (metrics) {
    return {
      modelCalls: responses.length || events.filter((e) => e.llm_metrics).length,
      inputTokens: count(metrics.accumulated_token_usage?.prompt_tokens),
      outputTokens: count(metrics.accumulated_token_usage?.completion_tokens),
      costUsd: typeof metrics.accumulated_cost === "number" ? metrics.accumulated_cost : null,
    };
  }
  if (responses.length === 0) return NO_USAGE;
  return {
    modelCalls: responses.length,
    inputTokens: responses.reduce((sum, r) => sum + count(r.usage?.prompt_tokens), 0),
    outputTokens: responses.reduce((sum, r) => sum + count(r.usage?.completion_tokens), 0),
    costUsd: null,
  };
}
