import { expect } from "vitest";
import { isAppError } from "@/lib/errors/app-error";

/** Asserts that `run` throws an INVALID_INPUT AppError whose message contains `fragment`. */
export function expectInvalid(run: () => unknown, fragment: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(isAppError(caught, "INVALID_INPUT"), `expected an INVALID_INPUT AppError, got ${String(caught)}`).toBe(true);
  expect((caught as Error).message).toContain(fragment);
}

export function transpose(table: number[][]): number[][] {
  return (table[0] ?? []).map((_, j) => table.map((row) => row[j] ?? 0));
}
