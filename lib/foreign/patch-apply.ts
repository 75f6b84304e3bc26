/**
 * A unified diff (parsed by patch.ts) applied: a hunk list applied to a file's text, and the file
 * changes of a run rebuilt from a diff (with the repository it applies to, when there is one).
 *
 * Applying is exact: every context and removed line must match, found at the header's line or at
 * the nearest offset above or below it (as `patch` searches), with no fuzz. The search takes time
 * linear in the file (BlockSearch), however long the hunk.
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
  const search = new BlockSearch(lines);
  const out: string[] = [];
  let cursor = 0;
  let offset = 0;
  file.hunks.forEach((hunk, index) => {
    const old = hunk.lines.filter((l) => l.op !== "+").map((l) => l.text);
    const planned = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    const at = search.find(old, planned + offset, cursor);
    if (at === -1) {
      const name = `hunk ${index + 1} of ${file.hunks.length} (line ${hunk.line} of the diff, @@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@)`;
      throw new PatchApplyError(file.path, `${name} does not apply: ${firstMismatch(lines, old, planned + offset)}`);
    }
    // A loop, not push(...slice): a spread of 200 000 lines overflows the stack.
    for (let k = cursor; k < at; k++) out.push(lines[k]!);
    for (const l of hunk.lines) if (l.op !== "-") out.push(l.text);
    cursor = at + old.length;
    offset = at - planned;
  });
  for (let k = cursor; k < lines.length; k++) out.push(lines[k]!);
  const after = out.join("");
  if (file.kind === "deleted" && after !== "") {
    throw new PatchApplyError(
      file.path,
      `the patch deletes it but leaves ${splitLines(after).length} line(s) it does not remove`,
    );
  }
  return after;
}

/** Two primes below 2^26: a hash fits a Uint32Array, and a hash times a base stays below 2^52, exact in a double. */
const HASH_MODULI = [67_108_859, 67_108_837] as const;

/**
 * Where a hunk's block of lines occurs in a file, in time linear in the lines searched (was: the
 * whole block compared at each candidate line, 8 s for 20 000 blank context lines on a file of
 * blank lines). Each line of the file is numbered by its text and every prefix of the file hashed
 * (two polynomial hashes, random bases) once, so a candidate line costs one comparison of hashes;
 * the lines themselves are compared only where the hashes agree, so a match is always exact.
 */
class BlockSearch {
  private index: { ids: Map<string, number>; bases: number[]; prefixes: Uint32Array[] } | null = null;

  constructor(private readonly lines: readonly string[]) {}

  /** Where `block` occurs at or after `from`, nearest to `planned` (below first on a tie); -1 if nowhere. */
  find(block: readonly string[], planned: number, from: number): number {
    const { lines } = this;
    const last = lines.length - block.length;
    if (last < from) return -1;
    if (block.length === 0) return Math.min(Math.max(planned, from), lines.length);
    const exact = (at: number) => block.every((text, k) => lines[at + k] === text);
    // The common case, a hunk where its header says, needs no index.
    if (planned >= from && planned <= last && exact(planned)) return planned;
    const hashed = this.hashes(block);
    if (hashed === null) return -1;
    const matches = (at: number) =>
      this.hashesAt(at, block.length, hashed.powers).every((h, m) => h === hashed.hashes[m]) && exact(at);
    // Start at the first distance that reaches a line in [from, last] (a header may say line 999999999).
    let distance = planned > last ? planned - last : planned < from ? from - planned : 0;
    for (; planned - distance >= from || planned + distance <= last; distance++) {
      const below = planned + distance;
      if (below >= from && below <= last && matches(below)) return below;
      const above = planned - distance;
      if (distance > 0 && above >= from && above <= last && matches(above)) return above;
    }
    return -1;
  }

  private built() {
    if (this.index !== null) return this.index;
    const ids = new Map<string, number>();
    const bases = HASH_MODULI.map((modulus) => 2 + Math.floor(Math.random() * (modulus - 3)));
    const prefixes = HASH_MODULI.map((modulus, m) => {
      const prefix = new Uint32Array(this.lines.length + 1);
      this.lines.forEach((line, k) => {
        let id = ids.get(line);
        if (id === undefined) ids.set(line, (id = ids.size + 1));
        prefix[k + 1] = (prefix[k]! * bases[m]! + id) % modulus;
      });
      return prefix;
    });
    return (this.index = { ids, bases, prefixes });
  }

  /** The block's hashes and each base to the power of its length; null when a line of it is nowhere in the file. */
  private hashes(block: readonly string[]): { hashes: number[]; powers: number[] } | null {
    const { ids, bases } = this.built();
    const hashes = HASH_MODULI.map(() => 0);
    const powers = HASH_MODULI.map(() => 1);
    for (const text of block) {
      const id = ids.get(text);
      if (id === undefined) return null;
      HASH_MODULI.forEach((modulus, m) => {
        hashes[m] = (hashes[m]! * bases[m]! + id) % modulus;
        powers[m] = (powers[m]! * bases[m]!) % modulus;
      });
    }
    return { hashes, powers };
  }

  /** The hashes of the `length` lines from line `at`. */
  private hashesAt(at: number, length: number, powers: readonly number[]): number[] {
    const { prefixes } = this.built();
    return HASH_MODULI.map((modulus, m) => {
      const prefix = prefixes[m]!;
      return (prefix[at + length]! - ((prefix[at]! * powers[m]!) % modulus) + modulus) % modulus;
    });
  }
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
