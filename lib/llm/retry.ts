/**
 * Retries with exponential backoff and full jitter ("Exponential Backoff And Jitter", AWS
 * Architecture Blog): attempt n waits a random time in [delay/2, delay] with
 * delay = min(maxDelayMs, baseDelayMs * 2^n). Only errors the predicate calls retryable are retried.
 */

export interface RetryOptions {
  /** Retries after the first attempt (0 = try once). */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  isRetryable: (error: unknown) => boolean;
  /** Injected for tests; defaults to Math.random and setTimeout. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function backoffDelay(
  attempt: number,
  options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs">,
  random: number,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

export async function withRetry<T>(
  run: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<{ value: T; attempts: number }> {
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return { value: await run(attempt), attempts: attempt + 1 };
    } catch (error) {
      if (attempt >= options.maxRetries || !options.isRetryable(error)) throw error;
      const delayMs = backoffDelay(attempt, options, random());
      options.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await sleep(delayMs);
    }
  }
}
