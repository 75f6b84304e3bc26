/**
 * The run's file changes as the judge reads them: every changed path with its size in bytes and a
 * short unified diff (`{{changed_files}}`), and the full diff of the target file(s) of the task
 * (`{{target_diff}}`), elided in the middle only when over its share of the budget, under a marker
 * that counts what it hides.
 */
import { diffLines, splitLines, type DiffOp } from "@/lib/analysis/line-diff";
import type { EvaluatedChange, EvaluationInput } from "@/lib/judge/schema";
import { truncateMiddle } from "./render-step";

const num = (n: number) => n.toLocaleString("en-US");

function isBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0);
}

const bytes = (data: Buffer | null) => (data ? `${data.length} bytes` : "? bytes");

/** Bytes of a change's after side: its content's, else the size the record kept (over the runner's size cap). */
export function afterBytes(change: EvaluatedChange): number | null {
  return change.after ? change.after.length : (change.afterSize ?? null);
}

/** A change the judge can read line by line: its header and the lines of both sides; else its one-line header. */
type Readable = { header: string; a: string[]; b: string[]; ops: DiffOp[] | null };

function readable(change: EvaluatedChange): Readable | string {
  const { before, after } = change;
  const size = afterBytes(change);
  const afterText = size === null ? "? bytes" : `${size} bytes`;
  // A side the record holds no content of (over the runner's size cap, or a diff without the repository).
  const missing = (change.kind !== "created" && !before) || (change.kind !== "deleted" && !after);
  if (missing) {
    const sizes =
      change.kind === "deleted"
        ? bytes(before)
        : change.kind === "created"
          ? afterText
          : `${bytes(before)} -> ${afterText}`;
    return `${change.kind} ${change.path} (${sizes}; content not captured)`;
  }
  if ((before && isBinary(before)) || (after && isBinary(after))) {
    return `${change.kind} ${change.path} (binary, ${after?.length ?? before?.length ?? 0} bytes)`;
  }
  const a = before ? splitLines(before.toString("utf8")) : [];
  const b = after ? splitLines(after.toString("utf8")) : [];
  if (change.kind === "deleted") return `deleted ${change.path} (${a.length} lines, ${bytes(before)})`;
  if (change.kind === "created")
    return { header: `created ${change.path} (${b.length} lines, ${afterText})`, a, b, ops: null };
  const ops = diffLines(a, b);
  const added = ops.filter((o) => o.kind === "insert").length;
  const removed = ops.filter((o) => o.kind === "delete").length;
  return { header: `updated ${change.path} (+${added} -${removed}; ${bytes(before)} -> ${afterText})`, a, b, ops };
}

/** The body lines of a readable change: a created file's lines, an update's unified diff. */
function bodyLines(change: Readable, context: number): string[] {
  return change.ops ? unifiedDiff(change.ops, change.a, change.b, context) : change.b.map((l) => `+${l}`);
}

/** Unified-diff lines: the changes with `context` lines around them, `@@ -a +b @@` before each hunk. */
function unifiedDiff(ops: readonly DiffOp[], a: readonly string[], b: readonly string[], context: number): string[] {
  const keep = new Set<number>();
  ops.forEach((op, i) => {
    if (op.kind === "equal") return;
    for (let j = Math.max(0, i - context); j <= Math.min(ops.length - 1, i + context); j++) keep.add(j);
  });
  const lines: string[] = [];
  let previous = -2;
  for (const i of [...keep].sort((x, y) => x - y)) {
    const op = ops[i]!;
    if (i !== previous + 1) lines.push(`@@ -${op.a + 1} +${op.b + 1} @@`);
    previous = i;
    lines.push(
      op.kind === "delete" ? `-${a[op.a] ?? ""}` : op.kind === "insert" ? `+${b[op.b] ?? ""}` : ` ${a[op.a] ?? ""}`,
    );
  }
  return lines;
}

/** A change on one line: its kind, path, lines added and removed, and sizes in bytes. */
export function changeHeader(change: EvaluatedChange): string {
  const shown = readable(change);
  return typeof shown === "string" ? shown : shown.header;
}

function renderChange(change: EvaluatedChange, maxLines: number, diffElsewhere: boolean): string {
  const shown = readable(change);
  if (typeof shown === "string") return shown;
  if (diffElsewhere) return `${shown.header}; its full diff is in the target_diff block`;
  const body = bodyLines(shown, 2);
  const more =
    body.length > maxLines ? [`... ${body.length - maxLines} more ${shown.ops ? "diff lines" : "lines"}`] : [];
  return [shown.header, ...body.slice(0, maxLines), ...more].join("\n");
}

export interface ChangesOptions {
  /** Hunk lines shown per changed file (default 40). */
  maxLines?: number;
  /** Files whose diff another section shows in full (the target files, in <target_diff>). */
  diffElsewhere?: ReadonlySet<string>;
}

/** Every changed path is listed; diffs are dropped from the last files first when over `maxChars`. */
export function renderChanges(
  changes: readonly EvaluatedChange[],
  maxChars: number,
  options: ChangesOptions = {},
): string {
  if (changes.length === 0) return "(no file was created, updated or deleted)";
  const sorted = [...changes].sort((x, y) => x.path.localeCompare(y.path));
  const headers = sorted.map((c) => `${c.kind} ${c.path}`);
  const parts = sorted.map((c) => renderChange(c, options.maxLines ?? 40, options.diffElsewhere?.has(c.path) ?? false));
  for (let i = parts.length - 1; i >= 0 && parts.join("\n\n").length > maxChars; i--) {
    parts[i] = `${headers[i]} (diff omitted for length)`;
  }
  return truncateMiddle(parts.join("\n\n"), maxChars);
}

/** Keeps the first and last lines within `maxChars`, a marker in between counting the lines and characters it hides. */
export function elideLines(lines: readonly string[], maxChars: number, what: string): string[] {
  const size = (ls: readonly string[]) => ls.reduce((sum, l) => sum + l.length + 1, 0);
  if (size(lines) <= maxChars) return [...lines];
  // The marker takes at most 100 characters; the head gets 60% of the rest, the tail what is left.
  const room = Math.max(0, maxChars - 100);
  let i = 0;
  let used = 0;
  while (i < lines.length && used + lines[i]!.length + 1 <= room * 0.6) used += lines[i++]!.length + 1;
  let j = lines.length;
  while (j > i && used + lines[j - 1]!.length + 1 <= room) used += lines[--j]!.length + 1;
  const [head, hidden, tail] = [lines.slice(0, i), lines.slice(i, j), lines.slice(j)];
  const marker = `[... ${num(hidden.length)} ${what} (${num(size(hidden))} chars) elided for length ...]`;
  return [...head, marker, ...tail];
}

/** The task's target files: the file holding the target and, for a move, its destination. */
export function targetFiles(input: EvaluationInput): string[] {
  const { originalFile, destinationFile } = input.groundTruth;
  return [...new Set([originalFile, destinationFile].filter((p): p is string => typeof p === "string" && p !== ""))];
}

/**
 * The full diff of each target file (three lines of context; a created file in full), within
 * `maxChars` over all of them, each file's share in proportion to its length.
 */
export function renderTargetDiff(input: EvaluationInput, maxChars: number): string {
  const files = targetFiles(input);
  if (files.length === 0) return "(the task names no target file)";
  const parts = files.map((path) => {
    const change = input.changes.find((c) => c.path === path);
    if (!change) {
      return input.evidence.workspace === "none"
        ? [`${path}: not known (the record holds no workspace diff)`]
        : [`${path}: unchanged`];
    }
    const shown = readable(change);
    return typeof shown === "string" ? [shown] : [shown.header, ...bodyLines(shown, 3)];
  });
  const total = parts.reduce((sum, p) => sum + p.join("\n").length, 0);
  return parts
    .map((lines) => {
      const share = Math.max(500, Math.floor((maxChars * lines.join("\n").length) / Math.max(1, total)) - 2);
      const [header, ...body] = lines;
      return [header!, ...elideLines(body, share - header!.length - 1, "diff lines")].join("\n");
    })
    .join("\n\n");
}
