import { z } from "zod";

/**
 * Paths inside a workspace or a bundle are relative POSIX paths that stay inside their root.
 * Anything else (absolute, `..`, backslashes, NUL, empty segments) is refused, never "fixed".
 */
export function explainUnsafeRelativePath(p: string): string | null {
  if (p.length === 0) return "is empty";
  if (p.includes("\0")) return "contains a NUL byte";

  if (/[\x00-\x1f\x7f]/.test(p)) return "contains a control character";
  if (p.includes("\\")) return "contains a backslash (use POSIX '/' separators)";
  if (p.startsWith("/") || /^[A-Za-z]:/.test(p)) return "is absolute";
  const segments = p.split("/");
  if (segments.some((s) => s === "..")) return "escapes its root with '..'";
  if (segments.some((s) => s === "" || s === ".")) return "has an empty or '.' segment";
  return null;
}

export const SafeRelativePathSchema = z
  .string()
  .max(1024)
  .superRefine((value, ctx) => {
    const problem = explainUnsafeRelativePath(value);
    if (problem) ctx.addIssue({ code: "custom", message: `path "${value}" ${problem}` });
  });
