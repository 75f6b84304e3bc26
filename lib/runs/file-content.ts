/**
 * How much of a changed file the run page shows. Each side of a diff is either absent (the file
 * was created or deleted: diffed against empty), stored (text or binary, with its size), kept by
 * size and hash only (over the runner's size cap), or named by a hash the store lacks. Text up to MAX_DIFF_BYTES per side is shown; the page inlines sides
 * until INLINE_DIFF_BUDGET_BYTES and leaves the rest to be fetched when scrolled to.
 */
import type { FileDiffContent } from "./schema";

export const MAX_DIFF_BYTES = 1_000_000;
export const INLINE_DIFF_BUDGET_BYTES = 2_000_000;

export type SideInfo =
  | { state: "absent" }
  | { state: "missing" }
  /** Recorded by size and hash only (the bundle entry has `contentOmitted`). */
  | { state: "not_kept" }
  | { state: "stored"; size: number; isText: boolean };

/** Either the bytes to load for both sides, or what to show instead of a diff. */
export type DiffPlan = { status: "load"; bytes: number } | Exclude<FileDiffContent, { status: "inline" | "deferred" }>;

export function diffPlan(before: SideInfo, after: SideInfo, maxBytes = MAX_DIFF_BYTES): DiffPlan {
  const sides = [before, after];
  if (sides.some((s) => s.state === "not_kept")) return { status: "not_kept", beforeSha256: null, afterSha256: null };
  if (sides.some((s) => s.state === "missing")) return { status: "missing" };
  const stored = sides.filter((s): s is Extract<SideInfo, { state: "stored" }> => s.state === "stored");
  if (stored.some((s) => !s.isText)) return { status: "binary" };
  if (stored.some((s) => s.size > maxBytes)) return { status: "too_large", limitBytes: maxBytes };
  return { status: "load", bytes: stored.reduce((sum, s) => sum + s.size, 0) };
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The file as text, or null when it is not UTF-8 text (invalid bytes or a NUL). */
export function decodeText(data: Uint8Array): string | null {
  if (data.includes(0)) return null;
  try {
    return decoder.decode(data);
  } catch {
    return null;
  }
}

/** The editor language for a path: Python is the one registered (see components/code/monaco-setup.ts). */
export function languageOf(path: string): "python" | "plaintext" {
  return /\.(py|pyi|pyw)$/i.test(path) ? "python" : "plaintext";
}
