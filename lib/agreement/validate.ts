import type { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import { formatIssuePath } from "@/lib/errors/zod-issues";

/**
 * Parses `value` with `schema`, or throws an INVALID_INPUT AppError naming the function, the
 * argument and the offending cell, e.g. "cohenKappa: table[0][1] must not be negative (got -1)".
 * `argument` is omitted when `value` is an object of several arguments (its keys name them).
 * Only the first issue is reported: one clear line is what the boundaries show.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, fn: string, argument?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const subject = formatIssuePath(argument ? [argument, ...path] : path);
  const words = [subject, issue?.message ?? "is invalid"].filter((word) => word !== "");
  throw new AppError("INVALID_INPUT", `${fn}: ${words.join(" ")}`);
}
