/**
 * The one place model-provider failures become AppErrors: UNAVAILABLE (retryable: 408, 429, 5xx,
 * network, timeouts) or INVALID_INPUT (other 4xx, which a retry cannot fix). The vendor SDKs throw
 * errors carrying `status`; their connection failures are instances of APIConnectionError and
 * APIConnectionTimeoutError (openai, @anthropic-ai/sdk).
 */
import { AppError, isAppError } from "@/lib/errors/app-error";

/** Request timeout, rate limit or quota, and server errors: the same request may succeed later. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Whether a normalized provider error is worth another attempt. */
export function isRetryableLlmError(error: unknown): boolean {
  return isAppError(error, "UNAVAILABLE");
}

function statusOf(error: unknown): number | null {
  if (error !== null && typeof error === "object" && "status" in error) {
    const status = (error as { status: unknown }).status;
    if (typeof status === "number" && status >= 100 && status < 600) return status;
  }
  return null;
}

/** The provider's own message, shortened: error bodies can be long JSON documents. */
function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 500 ? `${text.slice(0, 500)}...` : text;
}

/** Network-level failures: refused or reset connections, DNS, aborted or timed-out requests. */
function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "AbortError" || error.name === "TimeoutError") return true;
  // The SDKs' classes leave `name` as "Error"; their constructors carry the name.
  if (["APIConnectionError", "APIConnectionTimeoutError"].includes(error.constructor.name)) return true;
  if (error instanceof TypeError && /fetch failed|network|terminated|socket/i.test(error.message)) return true;
  const cause = (error as { cause?: unknown }).cause;
  const code = cause !== null && typeof cause === "object" ? (cause as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code);
}

/** Translates anything a provider SDK throws into an AppError (AppErrors pass through). */
export function normalizeLlmError(provider: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const status = statusOf(error);
  if (status !== null) {
    const code = isRetryableStatus(status) ? "UNAVAILABLE" : "INVALID_INPUT";
    return new AppError(code, `${provider}: HTTP ${status}: ${messageOf(error)}`, { cause: error });
  }
  if (isNetworkError(error)) {
    return new AppError("UNAVAILABLE", `${provider}: network error: ${messageOf(error)}`, { cause: error });
  }
  return new AppError("INTERNAL", `${provider}: ${messageOf(error)}`, { cause: error });
}
