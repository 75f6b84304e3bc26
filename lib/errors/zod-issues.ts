/**
 * A zod error as people read it: every boundary (bundles, CLI arguments, environment, forms,
 * query strings, LLM answers, tool arguments) words an issue as `<path>: <message>`, the path
 * written `files[3].path`. Callers only choose what names the whole value when the path is empty.
 */
import type { z } from "zod";
import type { FieldErrors } from "./action-result";

type Issue = z.core.$ZodIssue;

/** `files[3].path`, the dotted path zod reports, as people write it. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`))
    .join("");
}

/** `<path>: <message>`; `whole` names the value itself when the issue has no path. */
export function formatIssue(issue: Issue, whole = "value"): string {
  return `${issue.path.length > 0 ? formatIssuePath(issue.path) : whole}: ${issue.message}`;
}

/** The first issue as one line: one clear line is what a boundary shows. */
export function firstIssue(error: z.ZodError, whole?: string): string {
  const issue = error.issues[0];
  return issue ? formatIssue(issue, whole) : `${whole ?? "value"}: invalid`;
}

/** Every issue, `; `-separated. */
export function allIssues(error: z.ZodError, whole?: string): string {
  return error.issues.map((issue) => formatIssue(issue, whole)).join("; ");
}

/** `field "<path>": <message>`, the tail of a message that names a place first (`x.jsonl line 3, field "id": ...`). */
export function fieldIssue(error: z.ZodError, whole = ""): string {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? formatIssuePath(issue.path) : whole;
  return `field "${field}": ${issue?.message ?? "invalid"}`;
}

/** A form's problems: the first message of each top-level field, shown under that field. */
export function fieldErrorsOf<F extends string>(error: z.ZodError): FieldErrors<F> {
  const fieldErrors: FieldErrors<F> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === "string") fieldErrors[field as F] ??= issue.message;
  }
  return fieldErrors;
}

export type FormParse<T, F extends string> = { ok: true; value: T } | { ok: false; fieldErrors: FieldErrors<F> };

/** Parses a form's fields with `schema`: the value, or one message per bad field. */
export function parseForm<S extends z.ZodType, F extends string>(
  schema: S,
  input: Partial<Record<F, unknown>>,
): FormParse<z.output<S>, F> {
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, fieldErrors: fieldErrorsOf<F>(parsed.error) };
}
