/**
 * Where each hunk of a file's diff starts, so that a verdict citing `{path, hunk}` can be shown:
 * hunks as `git diff` makes them (changes closer than twice the context merged into one), counted
 * from 0, and located by their first changed line on each side.
 */
import { diffLines, splitLines } from "@/lib/analysis/line-diff";

export interface HunkLocation {
  /** 1-based: the first removed line, or the line the insertion follows in the old file. */
  beforeLine: number;
  /** 1-based: the first added line, or the line the removal sits before in the new file. */
  afterLine: number;
  /** Whether the hunk adds lines (else it only removes: show it on the old side). */
  adds: boolean;
}

export function hunkLocations(before: string, after: string, context = 3): HunkLocation[] {
  const a = before === "" ? [] : splitLines(before);
  const b = after === "" ? [] : splitLines(after);
  const ops = diffLines(a, b);
  const hunks: HunkLocation[] = [];
  let lastChange = -Infinity;
  let equalRun = 0;
  ops.forEach((op, i) => {
    if (op.kind === "equal") {
      equalRun += 1;
      return;
    }
    const current = hunks.at(-1);
    if (!current || (equalRun > 2 * context && i > lastChange)) {
      hunks.push({
        beforeLine: Math.max(1, Math.min(op.a + 1, a.length)),
        afterLine: Math.max(1, Math.min(op.b + 1, b.length)),
        adds: op.kind === "insert",
      });
    } else if (op.kind === "insert") current.adds = true;
    equalRun = 0;
    lastChange = i;
  });
  return hunks;
}
