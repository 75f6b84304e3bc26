/**
 * Docstring and body differences of one function (or class, or module docstring): what the
 * Body Change metric judges on the target and the Context metric on everything else.
 */
import { headerSpan, short, type Finding } from "./compare-signature";
import type { Span } from "./line-diff";
import { cleandoc, normalizeDocstring } from "./python-strings";
import type { FunctionEntry } from "./schema";

export interface DocstringSide {
  value: string | null;
  span: Span | null;
}

/**
 * `subject`: "docstring of `parse`", "module docstring". Compared after collapsing whitespace: a
 * requirement re-indented or re-wrapped says the same thing. `addedIsChange`: whether a docstring
 * where there was none counts (for an existing function it does: its `__doc__` changed).
 */
export function compareDocstring(
  subject: string,
  before: DocstringSide,
  after: DocstringSide,
  fallback: { before: Span | null; after: Span | null },
): Finding | null {
  const spans = { before: before.span ?? fallback.before, after: after.span ?? fallback.after };
  if (before.value === null && after.value === null) return null;
  if (before.value === null) return { element: subject, message: `${subject} added`, ...spans };
  if (after.value === null) return { element: subject, message: `${subject} removed`, ...spans };
  if (normalizeDocstring(before.value) === normalizeDocstring(after.value)) return null;
  return {
    element: subject,
    message: `${subject} altered${firstDifference(cleandoc(before.value), cleandoc(after.value))}`,
    ...spans,
  };
}

/** A function that must keep its text: its docstring and its normalized body, each a finding if it differs. */
export function compareFunctionText(expected: FunctionEntry, actual: FunctionEntry): Finding[] {
  const name = `\`${expected.qualifiedName}\``;
  const doc = compareDocstring(
    `docstring of ${name}`,
    { value: expected.docstring, span: expected.docstringSpan },
    { value: actual.docstring, span: actual.docstringSpan },
    { before: headerSpan(expected), after: headerSpan(actual) },
  );
  const body = compareBody(`body of ${name}`, expected, actual);
  return [doc, body].filter((finding): finding is Finding => finding !== null);
}

/** " (line 3: `Args:` → `Arguments:`)": the first line that differs, whitespace aside, numbered in the new text. */
export function firstDifference(before: string, after: string): string {
  const lines = (text: string) =>
    text
      .split("\n")
      .map((l, i) => ({ number: i + 1, text: l.replace(/\s+/g, " ").trim() }))
      .filter((l) => l.text !== "");
  const a = lines(before);
  const b = lines(after);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]?.text === b[i]?.text) continue;
    const was = a[i] ? `\`${short(a[i]!.text)}\`` : "nothing";
    const now = b[i] ? `\`${short(b[i]!.text)}\`` : "nothing";
    return ` (line ${(b[i] ?? a[i])!.number}: ${was} → ${now})`;
  }
  return "";
}

export function bodySpan(fn: FunctionEntry): Span {
  return { startLine: fn.docstringSpan ? fn.docstringSpan.endLine + 1 : fn.defLine + 1, endLine: fn.endLine };
}

export function functionSpan(fn: FunctionEntry): Span {
  return { startLine: fn.startLine, endLine: fn.endLine };
}

/** "body of `f` changed (`return a + b` → `return a - b`)" when the normalized bodies differ. */
export function compareBody(label: string, before: FunctionEntry, after: FunctionEntry): Finding | null {
  if (before.bodyHash === after.bodyHash) return null;
  const spans = { before: bodySpan(before), after: bodySpan(after) };
  const a = before.normalizedBody.split("\n");
  const b = after.normalizedBody.split("\n");
  let detail = "";
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    const was = a[i] ? `\`${short(a[i]!.trim())}\`` : "nothing";
    const now = b[i] ? `\`${short(b[i]!.trim())}\`` : "nothing";
    detail = ` (${was} → ${now})`;
    break;
  }
  return { element: label, message: `${label} changed${detail}`, ...spans };
}
