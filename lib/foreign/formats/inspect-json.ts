/**
 * Inspect AI logs written as JSON (`inspect eval --log-format json`): one `EvalLog` document,
 * `{version, status, eval: EvalSpec{task, model, dataset{name}, packages}, plan, results, stats,
 * error, samples: [EvalSample]}`, each sample `{id, epoch, input, messages: [ChatMessage], events,
 * output, scores, metadata, model_usage, error, limit, attachments}`. The schema is Inspect's own
 * (inspect_ai/log/_log.py: EvalLog, EvalSpec, EvalSample; inspect_ai/model/_chat_message.py:
 * ChatMessageSystem/User/Assistant/Tool, ToolCall{id, function, arguments}, ToolCallError; events
 * in inspect_ai/log/_transcript.py: ToolEvent, SandboxEvent, span_begin). The `.eval` zip holds
 * the same objects (inspect-eval.ts); this module maps them for both:
 * - one run per sample; framework "inspect", the model from `eval.model` (`openai/gpt-4o`);
 * - messages in order: text → message steps, reasoning → "(thinking)" messages, each tool call →
 *   a `tool_call` (Inspect's tool name and arguments), answered by the tool message: a `shell`
 *   step for `bash` when the exit code is known (the sandbox `exec` event inside that tool call's
 *   span), else an `observation` (isError when the message has an `error`);
 * - tool calls only the events hold (an agent run as a tool or handed off to, turns the messages
 *   no longer keep) are read from their tool events, placed by span and time;
 * - samples of older versions (`transcript`, `score`, `tool_error`) are migrated as Inspect does;
 * - `attachment://` references (large texts stored once per sample) are resolved;
 * - the patch from a score's `metadata.model_patch` (inspect_evals' SWE-bench scorer), the
 *   workspace `/testbed` for SWE-bench tasks (their images' working directory).
 */
import { z } from "zod";
import type { ExitReason } from "@/lib/bundle/schema";
import { ForeignFormatError, type ForeignFile, type ForeignFormat, type ForeignRun } from "../types";
import {
  benchmarkFromNames,
  contentProbe,
  count,
  durationBetween,
  fieldPath,
  isoTime,
  numberSteps,
  parseJsonDocument,
  parseShape,
  stepTimes,
  type UnnumberedStep,
} from "./json-lines";
import { providerOf } from "./openhands-events";

const ToolCallSchema = z.looseObject({ id: z.string(), function: z.string(), arguments: z.unknown() });
const ContentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]);
const ChatMessageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: ContentSchema,
  tool_calls: z.array(ToolCallSchema).nullish(),
  tool_call_id: z.string().nullish(),
  function: z.string().nullish(),
  error: z.looseObject({ type: z.string().nullish(), message: z.string() }).nullish(),
  /** Before ToolCallError (Inspect 0.3.2x), a failed tool call's message as text. */
  tool_error: z.string().nullish(),
});
type ChatMessage = z.infer<typeof ChatMessageSchema>;

const EventSchema = z.looseObject({
  event: z.string(),
  timestamp: z.string().nullish(),
  span_id: z.string().nullish(),
});
type InspectEvent = z.infer<typeof EventSchema>;

export const EvalSampleSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  epoch: z.number().int().default(1),
  input: z.union([z.string(), z.array(ChatMessageSchema)]),
  messages: z.array(ChatMessageSchema),
  events: z.array(EventSchema).nullish(),
  scores: z.record(z.string(), z.looseObject({ metadata: z.record(z.string(), z.unknown()).nullish() })).nullish(),
  model_usage: z
    .record(z.string(), z.looseObject({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() }))
    .nullish(),
  error: z.looseObject({ message: z.string() }).nullish(),
  limit: z.looseObject({ type: z.string() }).nullish(),
  attachments: z.record(z.string(), z.string()).nullish(),
});
export type EvalSample = z.infer<typeof EvalSampleSchema>;

export const EvalSpecSchema = z.looseObject({
  task: z.string(),
  model: z.string(),
  created: z.string().nullish(),
  dataset: z.looseObject({ name: z.string().nullish() }).nullish(),
  packages: z.record(z.string(), z.string()).nullish(),
});
export type EvalSpec = z.infer<typeof EvalSpecSchema>;

/** The log without its samples: what a `.eval` zip keeps in `header.json`. */
export const EvalHeaderSchema = z.looseObject({
  version: z.number().int(),
  status: z.string().nullish(),
  eval: EvalSpecSchema,
});
const EvalLogSchema = EvalHeaderSchema.extend({ samples: z.array(z.unknown()).nullish() });

/** `sample.limit.type` (EvalSampleLimitType in inspect_ai/log/_log.py) → why the run stopped. */
const LIMIT_EXIT: Record<string, ExitReason> = {
  message: "step_limit",
  turn: "step_limit",
  token: "step_limit",
  context: "step_limit",
  cost: "step_limit",
  time: "timeout",
  working: "timeout",
  operator: "cancelled",
};

/** One sample of an Inspect log, checked, with the file name and where it is (for errors). */
export function parseSample(value: unknown, file: string, where: string): EvalSample {
  return parseShape(EvalSampleSchema, migrateSample(value), file, where);
}

/**
 * A sample as older Inspect versions wrote it, in today's shape, as Inspect itself migrates it
 * (EvalSample.migrate_deprecated in inspect_ai/log/_log.py): `transcript: {events, content}`
 * becomes `events` and `attachments`, a single `score` becomes `scores`.
 */
function migrateSample(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const sample = { ...(value as Record<string, unknown>) };
  const transcript = sample.transcript;
  if (transcript !== null && typeof transcript === "object" && !("events" in sample)) {
    const { events, content } = transcript as Record<string, unknown>;
    sample.events = events;
    sample.attachments ??= content;
    delete sample.transcript;
  }
  if ("score" in sample && !("scores" in sample)) {
    sample.scores = sample.score === null ? null : { score: sample.score };
    delete sample.score;
  }
  return sample;
}

/** The runs of one Inspect log: its header and its samples, in order. */
export function inspectRuns(header: z.infer<typeof EvalHeaderSchema>, samples: readonly EvalSample[]): ForeignRun[] {
  return samples.map((sample, index) => sampleRun(header, sample, index));
}

function sampleRun(header: z.infer<typeof EvalHeaderSchema>, sample: EvalSample, index: number): ForeignRun {
  const spec = header.eval;
  const resolve = attachmentResolver(sample.attachments ?? {});
  const tools = toolRuns(sample.events ?? []);
  const steps = numberSteps(withEventOnlyCalls(messageSteps(sample.messages, resolve, tools), tools, resolve));
  const benchmark = benchmarkFromNames([spec.dataset?.name, spec.task]) ?? spec.task.replace(/^.*\//, "");
  const eventTimes = (sample.events ?? []).flatMap((e) => isoTime(e.timestamp) ?? []).sort();
  const fromSteps = stepTimes(steps);
  const usage = Object.values(sample.model_usage ?? {});
  const modelEvents = (sample.events ?? []).filter((e) => e.event === "model").length;
  const limit = sample.limit?.type ?? null;
  return {
    index,
    formatVersion: String(header.version),
    task: { benchmark, instanceId: String(sample.id), prompt: inputText(sample.input, resolve) },
    agent: {
      framework: "inspect",
      frameworkVersion: spec.packages?.inspect_ai ?? null,
      model: spec.model,
      provider: providerOf(spec.model),
    },
    steps,
    hasTrajectory: true,
    patch: modelPatch(sample),
    workspaceRoot: /swe[-_]?bench/i.test(`${spec.task} ${spec.dataset?.name ?? ""}`) ? "/testbed" : null,
    status: sample.error ? "failed" : "completed",
    exitReason: sample.error ? "error" : limit !== null ? (LIMIT_EXIT[limit] ?? "error") : "finished",
    error: sample.error?.message ?? (limit !== null ? `Inspect ${limit} limit reached` : null),
    startedAt: eventTimes[0] ?? fromSteps.startedAt ?? isoTime(spec.created) ?? null,
    finishedAt: eventTimes.at(-1) ?? fromSteps.finishedAt ?? null,
    usage: {
      modelCalls: modelEvents || sample.messages.filter((m) => m.role === "assistant").length,
      inputTokens: usage.reduce((sum, u) => sum + count(u.input_tokens), 0),
      outputTokens: usage.reduce((sum, u) => sum + count(u.output_tokens), 0),
      costUsd: null,
    },
  };
}

type Resolve = (text: string) => string;

/** Inspect stores long texts once per sample as `attachment://<hash>`; the reference becomes its text. */
function attachmentResolver(attachments: Record<string, string>): Resolve {
  return (text) => (text.startsWith("attachment://") ? (attachments[text.slice(13)] ?? text) : text);
}

function resolveDeep(value: unknown, resolve: Resolve): unknown {
  if (typeof value === "string") return resolve(value);
  if (Array.isArray(value)) return value.map((v) => resolveDeep(v, resolve));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveDeep(v, resolve)]));
  return value;
}

/** The text of a message's content: its text parts (images and other media named, not inlined; reasoning apart). */
function contentText(content: ChatMessage["content"], resolve: Resolve): string {
  if (typeof content === "string") return resolve(content);
  return content
    .flatMap((part) => {
      if (part.type === "reasoning") return [];
      if (part.type !== "text") return [`[${part.type}]`];
      return typeof part.text === "string" ? [resolve(part.text)] : [];
    })
    .join("\n");
}

/**
 * The model's reasoning in a message's content (Inspect's ContentReasoning): its text, or, when
 * the provider redacted it (`redacted: true`, the text then an opaque signature), its summary.
 */
function reasoningText(content: ChatMessage["content"], resolve: Resolve): string {
  if (typeof content === "string") return "";
  return content
    .flatMap((part) => {
      if (part.type !== "reasoning") return [];
      const readable = typeof part.reasoning === "string" && part.reasoning.trim() !== "" ? part.reasoning : null;
      const text = part.redacted === true ? part.summary : (readable ?? part.summary);
      return typeof text === "string" && text.trim() !== "" ? [resolve(text)] : [];
    })
    .join("\n");
}

function inputText(input: EvalSample["input"], resolve: Resolve): string | null {
  if (typeof input === "string") return resolve(input);
  const text = input
    .filter((m) => m.role === "user")
    .map((m) => contentText(m.content, resolve))
    .join("\n");
  return text === "" ? null : text;
}

/** The diff the SWE-bench scorer of inspect_evals keeps with its score, if any. */
function modelPatch(sample: EvalSample): string | null {
  for (const score of Object.values(sample.scores ?? {})) {
    const patch = score.metadata?.model_patch;
    if (typeof patch === "string" && patch.trim() !== "") return patch;
  }
  return null;
}

/** What a sample's events say about one tool call (by id). */
interface ToolRun {
  function: string;
  arguments: unknown;
  /** The tool's result and error as the event has them (a tool message holds them too). */
  result: unknown;
  error: ToolError | null;
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
  /** The exit code of the last sandbox `exec` the call ran, when the log has it. */
  exitCode: number | null;
  /** The call this one ran inside (an agent run as a tool or handed off to), when its span says. */
  enclosingCall: string | null;
}

interface ToolError {
  type: string;
  message: string;
}

/**
 * What the events say about each tool call (by id), in event order: when it ran, the exit code of
 * the command it ran in the sandbox, and the call it ran inside. Inspect runs each tool inside a
 * span of type `tool` (named after the function) and records the tool event within that span;
 * the event's own `span_id` is that span or, as Inspect writes it since it began spans (0.3.9x),
 * the enclosing one, so the call's span is the earliest still open `tool` span of that name not
 * yet given to a call. A sandbox `exec` belongs to the call whose span holds it most closely; in
 * logs before spans it sits in the tool event's own `events`.
 */
function toolRuns(events: readonly InspectEvent[]): Map<string, ToolRun> {
  const runs = new Map<string, ToolRun>();
  const parentSpan = new Map<string, string | null>();
  const callOfSpan = new Map<string, string>();
  const recordedIn = new Map<string, string | null>();
  const openToolSpans: { id: string; name: unknown }[] = [];
  for (const event of events) {
    if (event.event === "span_begin" && typeof event.id === "string") {
      parentSpan.set(event.id, typeof event.parent_id === "string" ? event.parent_id : null);
      if (event.type === "tool") openToolSpans.push({ id: event.id, name: event.name });
    }
    if (event.event === "span_end") {
      const open = openToolSpans.findIndex((s) => s.id === event.id);
      if (open >= 0) openToolSpans.splice(open, 1);
    }
    if (event.event !== "tool" || typeof event.id !== "string" || typeof event.function !== "string") continue;
    const startedAt = isoTime(event.timestamp);
    const finishedAt = isoTime(event.completed);
    const working = typeof event.working_time === "number" ? Math.round(event.working_time * 1000) : undefined;
    const nested = (Array.isArray(event.events) ? event.events : []).filter(isExec);
    const error = event.error as { type?: unknown; message?: unknown } | null | undefined;
    runs.set(event.id, {
      function: event.function,
      arguments: event.arguments ?? {},
      result: event.result,
      error:
        error && typeof error.message === "string"
          ? { type: typeof error.type === "string" ? error.type : "unknown", message: error.message }
          : null,
      startedAt,
      finishedAt,
      durationMs: working ?? durationBetween(startedAt, finishedAt),
      exitCode: nested.length > 0 ? nested.at(-1)!.result : null,
      enclosingCall: null,
    });
    recordedIn.set(event.id, event.span_id ?? null);
    const own = openToolSpans.findIndex((s) => s.id === event.span_id);
    const named = openToolSpans.findIndex((s) => s.name === event.function && !callOfSpan.has(s.id));
    const span = openToolSpans[own >= 0 ? own : named];
    if (span && !callOfSpan.has(span.id)) callOfSpan.set(span.id, event.id);
  }
  /** The call whose span holds `span` most closely, other than `except`. */
  const callHolding = (span: string | null | undefined, except?: string): string | null => {
    for (let depth = 0; span && depth < 100; depth++, span = parentSpan.get(span)) {
      const call = callOfSpan.get(span);
      if (call !== undefined && call !== except) return call;
    }
    return null;
  };
  for (const [id, run] of runs) run.enclosingCall = callHolding(recordedIn.get(id), id);
  for (const event of events) {
    if (!isExec(event)) continue;
    const run = runs.get(callHolding(event.span_id) ?? "");
    if (run) run.exitCode = event.result;
  }
  return runs;
}

function isExec(event: unknown): event is InspectEvent & { result: number } {
  const e = event as Record<string, unknown> | null;
  return e?.event === "sandbox" && e.action === "exec" && Number.isInteger(e.result);
}

function messageSteps(
  messages: readonly ChatMessage[],
  resolve: Resolve,
  tools: Map<string, ToolRun>,
): UnnumberedStep[] {
  const steps: UnnumberedStep[] = [];
  const calls = new Map<string, { function: string; arguments: unknown }>();
  for (const message of messages) {
    if (message.role === "tool") {
      const callId = message.tool_call_id ?? undefined;
      const run = callId ? tools.get(callId) : undefined;
      let call = callId ? calls.get(callId) : undefined;
      if (callId && !call && run) {
        // The assistant turn that made this call is gone from the messages; its tool event holds it.
        call = { function: run.function, arguments: resolveDeep(run.arguments, resolve) };
        steps.push(callStep(callId, call.function, call.arguments, run));
      }
      steps.push(answerStep(callId, call, contentText(message.content, resolve), toolError(message), run));
      continue;
    }
    const reasoning = reasoningText(message.content, resolve);
    if (reasoning.trim() !== "") steps.push({ kind: "message", role: "assistant", text: `(thinking) ${reasoning}` });
    const text = contentText(message.content, resolve);
    if (text.trim() !== "") steps.push({ kind: "message", role: message.role, text });
    for (const call of message.tool_calls ?? []) {
      const args = resolveDeep(call.arguments ?? {}, resolve);
      calls.set(call.id, { function: call.function, arguments: args });
      steps.push(callStep(call.id, call.function, args, tools.get(call.id)));
    }
  }
  return steps;
}

function callStep(callId: string, tool: string, args: unknown, run: ToolRun | undefined): UnnumberedStep {
  return { kind: "tool_call", tool, arguments: args, callId, ...(run?.startedAt ? { timestamp: run.startedAt } : {}) };
}

/**
 * The step answering a tool call: a `shell` step for `bash` when the exit code is known (or the
 * command timed out), else an observation, isError when the tool failed.
 */
function answerStep(
  callId: string | undefined,
  call: { function: string; arguments: unknown } | undefined,
  output: string,
  error: ToolError | null,
  run: ToolRun | undefined,
): UnnumberedStep {
  const text = error ? [output, error.message].filter((t) => t !== "").join("\n") : output;
  const when = {
    ...(run?.finishedAt ? { timestamp: run.finishedAt } : {}),
    ...(run?.durationMs !== undefined ? { durationMs: run.durationMs } : {}),
  };
  const command = call?.function === "bash" ? commandOf(call.arguments) : null;
  if (command !== null && run?.exitCode != null && !error)
    return { kind: "shell", callId, command, exitCode: run.exitCode, output: text, timedOut: false, ...when };
  if (command !== null && error?.type === "timeout")
    return { kind: "shell", callId, command, exitCode: null, output: text, timedOut: true, ...when };
  return { kind: "observation", callId, text, isError: error !== null, ...when };
}

/**
 * The tool calls the sample's messages do not hold, from its tool events: those of an agent run
 * as a tool or handed off to (its conversation is not the sample's), or of turns the messages no
 * longer keep. Each call and its answer go just before the answer of the call it ran inside, or,
 * when it ran inside none, after the last step that happened before it.
 */
function withEventOnlyCalls(steps: UnnumberedStep[], tools: Map<string, ToolRun>, resolve: Resolve): UnnumberedStep[] {
  const inMessages = new Set(steps.flatMap((s) => (s.kind === "tool_call" && s.callId ? [s.callId] : [])));
  const out = [...steps];
  for (const [callId, run] of tools) {
    if (inMessages.has(callId)) continue;
    const args = resolveDeep(run.arguments, resolve);
    const pair = [
      callStep(callId, run.function, args, run),
      answerStep(callId, { function: run.function, arguments: args }, resultText(run.result, resolve), run.error, run),
    ];
    const enclosingAnswer = run.enclosingCall
      ? out.findIndex((s) => s.kind !== "tool_call" && "callId" in s && s.callId === run.enclosingCall)
      : -1;
    out.splice(enclosingAnswer >= 0 ? enclosingAnswer : positionAt(out, run.startedAt), 0, ...pair);
  }
  return out;
}

/** Where a step that happened at `time` goes: after the last step before it, else before the first after it. */
function positionAt(steps: readonly UnnumberedStep[], time: string | undefined): number {
  if (time === undefined) return steps.length;
  const earlier = steps.findLastIndex((s) => s.timestamp !== undefined && s.timestamp <= time);
  if (earlier >= 0) return earlier + 1;
  const later = steps.findIndex((s) => s.timestamp !== undefined && s.timestamp > time);
  return later >= 0 ? later : steps.length;
}

/** A tool event's result as text: a string, or content parts as a message's. */
function resultText(result: unknown, resolve: Resolve): string {
  if (typeof result === "string") return resolve(result);
  const parts = ContentSchema.safeParse(result);
  if (parts.success) return contentText(parts.data, resolve);
  return result === null || result === undefined ? "" : JSON.stringify(result);
}

/** Why a tool call failed (Inspect's ToolCallError, or the older `tool_error` text), or null. */
function toolError(message: ChatMessage): ToolError | null {
  if (message.error) return { type: message.error.type ?? "unknown", message: message.error.message };
  return message.tool_error ? { type: "unknown", message: message.tool_error } : null;
}

/** The command of Inspect's `bash(cmd)` tool call. */
function commandOf(args: unknown): string | null {
  const record = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  return typeof record.cmd === "string" ? record.cmd : typeof record.command === "string" ? record.command : null;
}

/** The samples of a whole-log JSON document, each checked where it is (`samples[3].messages[2].role`). */
function logSamples(file: ForeignFile, samples: readonly unknown[]): EvalSample[] {
  return samples.map((sample, i) => parseSample(sample, file.name, fieldPath(["samples", i])));
}

export const inspectJson: ForeignFormat = {
  id: "inspect-json",
  label: "Inspect AI log (.json)",
  readerVersion: 2,
  detect(file) {
    const { head, firstChar } = contentProbe(file);
    return (
      firstChar === "{" &&
      /^\s*\{\s*"version"\s*:\s*\d+\s*,/.test(head) &&
      /"eval"\s*:\s*\{/.test(head) &&
      /"(run_id|task_id|eval_id)"\s*:/.test(head)
    );
  },
  read(file) {
    const log = parseShape(EvalLogSchema, parseJsonDocument(file), file.name, null);
    const samples = log.samples ?? [];
    if (samples.length === 0)
      throw new ForeignFormatError(file.name, "samples", `holds no samples (log status ${log.status ?? "unknown"})`);
    return inspectRuns(log, logSamples(file, samples));
  },
};
