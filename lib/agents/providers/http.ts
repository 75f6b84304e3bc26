/**
 * What every chat provider shares: a per-call timeout through an AbortController, errors
 * normalized to AppError once (UNAVAILABLE is retryable, INVALID_INPUT is not), JSON POSTs with
 * `fetch`, and tolerant parsing of tool-call arguments that arrive as JSON text.
 */
import { AppError } from "@/lib/errors/app-error";
import { normalizeLlmError } from "@/lib/llm/provider";

/** An HTTP failure carrying its status, which `normalizeLlmError` maps to an AppError code. */
export class HttpStatusError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "HttpStatusError";
    this.status = status;
  }
}

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

/** The provider's own error message from a JSON error body (`{error: {message}}` or `{error: "..."}`). */
function errorMessageOf(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: unknown; message?: unknown };
    const error = json.error;
    if (typeof error === "string") return error;
    if (error !== null && typeof error === "object" && "message" in error) return String(error.message);
    if (typeof json.message === "string") return json.message;
  } catch {
    // Not JSON: an HTML error page or plain text from a proxy.
  }
  return body.slice(0, 300);
}

/** POSTs JSON and returns the parsed JSON answer; non-2xx answers throw HttpStatusError. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  if (!response.ok) throw new HttpStatusError(response.status, errorMessageOf(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("UNAVAILABLE", `malformed JSON answer from ${url}: ${text.slice(0, 200)}`);
  }
}

/** A 2xx answer whose shape is wrong (a proxy glitch, a half-compatible server): worth retrying. */
export function malformedResponse(provider: string, detail: string): AppError {
  return new AppError("UNAVAILABLE", `${provider}: malformed response: ${detail.slice(0, 300)}`);
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
