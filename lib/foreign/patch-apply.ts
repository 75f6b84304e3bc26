/**
 * A unified diff (parsed by patch.ts) applied: a hunk list applied to a file's text, and the file
 * changes of a run rebuilt from a diff (with the repository it applies to, when there is one).
 *
 * Applying is exact: every context and removed line must match, found at the header's line or at
 * the nearest offset above or below it (as `patch` searches), with no fuzz.
 */
import { isUtf8 } from "node:buffer";
import { parseUnifiedDiff, type PatchFile, type PatchFileKind } from "./patch";
import type { RepoReader } from "./repo";
import { ForeignFormatError } from "./types";

/** A hunk that does not apply to the file's text, or a patch that does not fit the repository. */
export class PatchApplyError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = "PatchApplyError";
  }
}

/** A text as its lines, each with its `\n` (the last one without, when the text does not end in one). */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * `file`'s hunks applied to `before` (null for a file the patch creates); the text after. Throws
 * PatchApplyError naming the file and the hunk that does not apply, or a binary patch.
 */
export function applyPatchFile(before: string | null, file: PatchFile): string {
  if (file.binary) throw new PatchApplyError(file.path, "a binary patch: its contents are not in the diff");
  if (before === null && file.kind !== "created") {
    throw new PatchApplyError(
      file.path,
      `the patch ${file.kind === "deleted" ? "deletes" : "changes"} it, but its text before is not known`,
    );
  }
  const lines = splitLines(before ?? "");
  const out: string[] = [];
  let cursor = 0;
  let offset = 0;
  file.hunks.forEach((hunk, index) => {
    const old = hunk.lines.filter((l) => l.op !== "+").map((l) => l.text);
    const planned = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    const at = findBlock(lines, old, planned + offset, cursor);
    if (at === -1) {
      const name = `hunk ${index + 1} of ${file.hunks.length} (line ${hunk.line} of the diff, @@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@)`;
      throw new PatchApplyError(file.path, `${name} does not apply: ${firstMismatch(lines, old, planned + offset)}`);
    }
    out.push(...lines.slice(cursor, at), ...hunk.lines.filter((l) => l.op !== "-").map((l) => l.text));
    cursor = at + old.length;
    offset = at - planned;
  });
  out.push(...lines.slice(cursor));
  const after = out.join("");
  if (file.kind === "deleted" && after !== "") {
    throw new PatchApplyError(
      file.path,
      `the patch deletes it but leaves ${splitLines(after).length} line(s) it does not remove`,
    );
  }
  return after;
}

/** Where `block` occurs in `lines` at or after `from`, nearest to `planned` (below first on a tie); -1 if nowhere. */
function findBlock(lines: readonly string[], block: readonly string[], planned: number, from: number): number {
  const last = lines.length - block.length;
  if (last < from) return -1;
  if (block.length === 0) return Math.min(Math.max(planned, from), lines.length);
  const matches = (at: number) => block.every((text, k) => lines[at + k] === text);
  for (let distance = 0; planned - distance >= from || planned + distance <= last; distance++) {
    const below = planned + distance;
    if (below >= from && below <= last && matches(below)) return below;
    const above = planned - distance;
    if (distance > 0 && above >= from && above <= last && matches(above)) return above;
  }
  return -1;
}

/** Why a block is not at `planned`: the first line that differs, quoted. */
function firstMismatch(lines: readonly string[], block: readonly string[], planned: number): string {
  const show = (text: string | undefined) =>
    text === undefined ? "the end of the file" : JSON.stringify(text.slice(0, 120));
  const k = block.findIndex((text, i) => lines[planned + i] !== text);
  if (k === -1) return "its lines occur only before an earlier hunk";
  return `its context and removed lines are nowhere in the file; at line ${planned + k + 1} the hunk expects ${show(block[k])}, the file has ${show(lines[planned + k])}`;
}

/**
 * One file's change as a diff rebuilds it. `before`/`after` are the contents when known; `known`
 * false means the diff alone cannot tell (an updated file without its repository, a binary patch).
 * A created file is known absent before, a deleted one known absent after.
 */
export interface FileChange {
  path: string;
  oldPath: string | null;
  kind: PatchFileKind;
  before: Buffer | null;
  after: Buffer | null;
  beforeKnown: boolean;
  afterKnown: boolean;
}

/**
 * The file changes of `patch`. Without a repository: a created file's text comes from its hunks, a
 * deleted file's from its hunks when they show the whole file (git's do), anything else is
 * unknown. With one: each file's text before is the repository's and its text after the patch
 * applied to it; a patch that does not fit the repository is a ForeignFormatError.
 */
export async function changesFromPatch(patch: string, repo: RepoReader | null, source: string): Promise<FileChange[]> {
  const files = parseUnifiedDiff(patch, source);
  const seen = new Set<string>();
  const changes: FileChange[] = [];
  for (const file of files) {
    if (seen.has(file.path)) throw new ForeignFormatError(source, file.path, "the diff changes this file twice");
    seen.add(file.path);
    try {
      changes.push(await fileChange(file, repo));
    } catch (error) {
      if (!(error instanceof PatchApplyError)) throw error;
      throw new ForeignFormatError(source, repo ? `against ${repo.describe}` : null, error.message);
    }
  }
  return changes;
}

async function fileChange(file: PatchFile, repo: RepoReader | null): Promise<FileChange> {
  const change = { path: file.path, oldPath: file.oldPath, kind: file.kind };
  const unknown = { before: null, after: null, beforeKnown: false, afterKnown: false };
  if (file.kind === "created") {
    if (repo && (await repo.readFile(file.path)) !== null)
      throw new PatchApplyError(file.path, "the patch creates it, but the repository has it already");
    // A copy starts from the copied file's text.
    const base = file.oldPath === null ? null : repo ? await readText(repo, file.oldPath) : undefined;
    const after =
      file.binary || base === undefined ? null : Buffer.from(applyPatchFile(base ?? "", { ...file, kind: "updated" }));
    return { ...change, ...unknown, beforeKnown: true, after, afterKnown: after !== null };
  }
  if (repo === null) {
    if (file.kind !== "deleted") return { ...change, ...unknown };
    const before = wholeDeletedText(file);
    return { ...change, ...unknown, before, beforeKnown: before !== null, afterKnown: true };
  }
  const beforePath = file.oldPath ?? file.path;
  const before = await repo.readFile(beforePath);
  if (before === null)
    throw new PatchApplyError(
      beforePath,
      `the patch ${file.kind === "deleted" ? "deletes" : "changes"} it, but the repository has no such file`,
    );
  if (file.binary) {
    return { ...change, before, beforeKnown: true, after: null, afterKnown: file.kind === "deleted" };
  }
  const after = applyPatchFile(decodeText(before, beforePath), file);
  return file.kind === "deleted"
    ? { ...change, before, beforeKnown: true, after: null, afterKnown: true }
    : { ...change, before, beforeKnown: true, after: Buffer.from(after), afterKnown: true };
}

async function readText(repo: RepoReader, path: string): Promise<string> {
  const data = await repo.readFile(path);
  if (data === null) throw new PatchApplyError(path, "the patch copies it, but the repository has no such file");
  return decodeText(data, path);
}

function decodeText(data: Buffer, path: string): string {
  if (!isUtf8(data))
    throw new PatchApplyError(path, "its text in the repository is not UTF-8, so the diff cannot be applied to it");
  return data.toString("utf8");
}

/** A deleted file's text when its one hunk removes every line from line 1 (git shows deletions so); else null. */
function wholeDeletedText(file: PatchFile): Buffer | null {
  if (file.binary) return null;
  if (file.hunks.length === 0) return Buffer.alloc(0); // git: an empty file deleted
  const [hunk] = file.hunks;
  if (file.hunks.length !== 1 || hunk!.oldStart !== 1 || hunk!.newLines !== 0) return null;
  return Buffer.from(hunk!.lines.map((l) => l.text).join(""));
}
