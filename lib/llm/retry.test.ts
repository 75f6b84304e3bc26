import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { isRetryableLlmError } from "./provider";
import { backoffDelay, withRetry } from "./retry";

describe("withRetry", () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1_000, isRetryable: isRetryableLlmError };

  it("backs off exponentially with jitter in [delay/2, delay], capped", () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, options, 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([0, 1, 2].map((n) => backoffDelay(n, options, 0))).toEqual([50, 100, 200]);
  });

  it("retries retryable errors up to maxRetries, then rethrows", async () => {
    const slept: number[] = [];
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        throw new AppError("UNAVAILABLE", "busy");
      },
      { ...options, maxRetries: 3, random: () => 1, sleep: async (ms) => void slept.push(ms) },
    ).catch((e: unknown) => e);
    expect((error as AppError).code).toBe("UNAVAILABLE");
    expect(calls).toBe(4);
    expect(slept).toEqual([100, 200, 400]);
  });

  it("does not retry other errors, and reports the attempts it took", async () => {
    let calls = 0;
    const fail = withRetry(
      async () => {
        calls++;
        throw new AppError("INVALID_INPUT", "bad");
      },
      { ...options, maxRetries: 3, sleep: async () => {} },
    );
    await expect(fail).rejects.toThrow("bad");
    expect(calls).toBe(1);
    let attempt = 0;
    const ok = await withRetry(
      async () => {
        if (++attempt < 3) throw new AppError("UNAVAILABLE", "busy");
        return "done";
      },
      { ...options, maxRetries: 5, sleep: async () => {} },
    );
    expect(ok).toEqual({ value: "done", attempts: 3 });
  });
});
