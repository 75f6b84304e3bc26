/** One trajectory step as text: in full (capped) for the judge prompt, and the helpers condensing uses. */
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { DESCRIBED_ARGUMENT_NAMES } from "@/lib/tool-registry";

/** Keeps the head and tail of a long text, marking the cut. */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 40) return `${text.slice(0, Math.max(0, max - 1))}…`;
  const marker = `[... ${text.length - max} chars cut ...]`;
  const keep = Math.max(0, max - marker.length);
  const head = Math.ceil(keep * 0.6);
  return `${text.slice(0, head)}${marker}${text.slice(text.length - (keep - head))}`;
}

export const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ⏎ ").trim();
const indent = (text: string) => text.replace(/\n/g, "\n    ");

function argumentsObject(args: unknown): Record<string, unknown> | null {
  if (typeof args === "string") {
    try {
      const parsed: unknown = JSON.parse(args);
      return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }
  return args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : null;
}

export const stringify = (value: unknown) =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));

/**
 * `key=value` pairs: the arguments the tool registry knows as paths, commands or code first (cut
 * at 300 chars), then the rest within `max`.
 */
export function summarizeArguments(args: unknown, max: number): string {
  const object = argumentsObject(args);
  if (!object) return truncateMiddle(oneLine(stringify(args)), max);
  const keys = Object.keys(object);
  const first = DESCRIBED_ARGUMENT_NAMES.filter((k) => keys.includes(k));
  const parts = first.map((k) => `${k}=${truncateMiddle(oneLine(stringify(object[k])), 300)}`);
  const rest = keys.filter((k) => !first.includes(k)).map((k) => `${k}=${oneLine(stringify(object[k]))}`);
  const room = max - parts.join(" ").length;
  const restText = rest.length > 0 && room > 20 ? truncateMiddle(rest.join(" "), room) : "";
  return [...parts, restText].filter((p) => p !== "").join(" ");
}

/** How long a step took, as the judge reads it after the step's kind: ` (850 ms)`, ` (12.3 s)`; "" when not recorded. */
export function durationOf(step: TrajectoryStep): string {
  const ms = step.durationMs;
  if (ms === undefined) return "";
  return ms < 1000 ? ` (${Math.round(ms)} ms)` : ` (${(ms / 1000).toFixed(1)} s)`;
}

/** One step in full (capped at `max` characters), its duration after its kind where recorded. */
export function renderStepFull(step: TrajectoryStep, max: number): string {
  const cap = (text: string) => indent(truncateMiddle(text, max));
  const took = durationOf(step);
  switch (step.kind) {
    case "message":
      return `[${step.id}] message${took} (${step.role}): ${cap(step.text)}`;
    case "tool_call":
      return `[${step.id}] tool_call ${step.tool}${took}${step.callId ? ` (call ${step.callId})` : ""}: ${cap(stringify(step.arguments))}`;
    case "observation":
      return `[${step.id}] observation${took}${step.callId ? ` (call ${step.callId})` : ""}${step.isError ? " ERROR" : ""}: ${cap(step.text)}`;
    case "shell":
      return `[${step.id}] shell${took} $ ${truncateMiddle(step.command, Math.max(200, max))} → exit ${step.exitCode ?? "?"}${
        step.timedOut ? " (timed out)" : ""
      }${step.output ? `\n    ${cap(step.output)}` : ""}`;
    default:
      return `[${step.id}] ${step.kind}${took} ${step.path}`;
  }
}
