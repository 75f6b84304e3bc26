/**
 * A native agent transcript turned into our trajectory model (lib/bundle/schema.ts): the steps,
 * the final answer, what the agent reported about its own usage, and an error when it says it failed.
 */
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { MAX_JSON_DEPTH, overDepthOffset } from "@/lib/bundle/decode";
import { AppError } from "@/lib/errors/app-error";

export interface NormalizedTranscript {
  steps: TrajectoryStep[];
  finalAnswer: string | null;
  /** As the agent reported them; null where its format has no such number. */
  usage: { modelCalls: number | null; inputTokens: number; outputTokens: number; costUsd: number | null };
  models: string[];
  sessionId: string | null;
  /** The agent's own statement that it failed (error result, failed turn), or null. */
  error: string | null;
  /** The directory the session ran in, as the log records it, or null. */
  cwd?: string | null;
  /** The CLI's version, as the log records it, or null. */
  cliVersion?: string | null;
}

/** A transcript with nothing in it yet, its steps being `steps` (a StepSink's). */
export const emptyTranscript = (steps: TrajectoryStep[]): NormalizedTranscript => ({
  steps,
  finalAnswer: null,
  usage: { modelCalls: null, inputTokens: 0, outputTokens: 0, costUsd: null },
  models: [],
  sessionId: null,
  error: null,
  cwd: null,
  cliVersion: null,
});

/** Appends steps with ids `s0`, `s1`, ... in order (the runner's own convention). */
export class StepSink {
  readonly steps: TrajectoryStep[] = [];

  push(step: DistributiveOmit<TrajectoryStep, "id">): void {
    this.steps.push({ ...step, id: `s${this.steps.length}` } as TrajectoryStep);
  }
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** JSON Lines, each line an object; `where` names the file in errors. Blank lines are skipped. */
export function parseJsonLines(text: string, where: string): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new AppError("INVALID_INPUT", `${where}: line ${i + 1} is not JSON (${(error as Error).message})`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new AppError("INVALID_INPUT", `${where}: line ${i + 1} is not a JSON object`);
    records.push(value as Record<string, unknown>);
  });
  return records;
}

export const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
export const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
export const asNumber = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
/** Milliseconds from one ISO time to the next, when both are known and in order. */
export const millisBetween = (from: string | undefined, to: string | undefined): number | undefined => {
  if (from === undefined || to === undefined) return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return ms >= 0 ? ms : undefined;
};
export const isoOrUndefined = (value: unknown): string | undefined =>
  typeof value === "string" && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined;

/**
 * Tool-call arguments as the framework sent them: a JSON object string is parsed, anything else
 * kept as it is, as is JSON nested deeper than half MAX_JSON_DEPTH (a step holds its arguments a
 * level or two down, and what handles steps next recurses).
 */
export function toolArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  if (overDepthOffset(raw, MAX_JSON_DEPTH / 2) !== -1) return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
