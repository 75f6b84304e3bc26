/**
 * What every chat provider shares: a per-call timeout through an AbortController, errors
 * normalized to AppError once (UNAVAILABLE is retryable, INVALID_INPUT is not), and tolerant
 * parsing of tool-call arguments that arrive as JSON text.
 */
import { AppError } from "@/lib/errors/app-error";
import { normalizeLlmError } from "@/lib/llm/provider";

/**
 * Runs one model call with an abort signal that fires after `timeoutMs` (unset or 0 = none), and
 * turns whatever it throws into an AppError. A timeout is UNAVAILABLE: the same call may succeed.
 */
export async function callWithTimeout<T>(
  provider: string,
  timeoutMs: number | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs !== undefined && timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : null;
  try {
    return await run(controller.signal);
  } catch (error) {
    if (timedOut) {
      throw new AppError("UNAVAILABLE", `${provider}: no response within ${timeoutMs} ms`, { cause: error });
    }
    throw normalizeLlmError(provider, error);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** A 2xx answer whose shape is wrong (a proxy glitch, a half-compatible server): worth retrying. */
export function malformedResponse(provider: string, answer: unknown): AppError {
  return new AppError("UNAVAILABLE", `${provider}: malformed response: ${JSON.stringify(answer).slice(0, 300)}`);
}

/**
 * Tool arguments that arrive as JSON text (OpenAI function calls). Models sometimes emit invalid
 * or non-object JSON; the call is kept (the agent can report the error to the model) rather than
 * failing the run: non-objects become `{ value }`, invalid JSON `{ _invalidJson: raw }`.
 */
export function parseToolArguments(raw: string | null | undefined): Record<string, unknown> {
  if (raw === null || raw === undefined || raw.trim() === "") return {};
  try {
    const value = JSON.parse(raw) as unknown;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    return { value };
  } catch {
    return { _invalidJson: raw };
  }
}

/** Ids for tool calls the protocol left without one: stable within a conversation. */
export const generatedCallId = (n: number) => `call_${n}`;
