/**
 * Repo diffs of runs made elsewhere (`git diff`, an SWE-bench `model_patch`, `diff -u`): a unified
 * diff parsed into files and hunks (applied to files' texts by patch-apply.ts).
 *
 * The format is GNU diffutils' "unified format" plus git-diff(1)'s extended headers (`diff --git`,
 * new/deleted file mode, rename/copy from/to, quoted paths, `Binary files ... differ`, `GIT binary
 * patch`). What is read, and how ambiguities are settled:
 * - Paths lose their `a/` `b/` prefix (git's, or any other pair git's `diff --git` line shows, or a
 *   `diff -ru old/ new/` pair whose first folders differ) and must be safe relative paths.
 * - A patch whose first line ends in CRLF is taken as CRLF-encoded as a whole (every `\r` before a
 *   newline is dropped); otherwise a `\r` at a line's end belongs to the file's content.
 * - Hunk line counts are trusted as written: a hunk that ends early or runs long is an error (as
 *   `git apply` says), never guessed at. An empty line inside a hunk is an empty context line, as
 *   GNU patch takes it (editors strip the trailing space).
 * - Binary patches are known by path and kind only: their contents are never decoded.
 * - A copy (`copy from`/`copy to`) is a created file whose `oldPath` is the copied one.
 * - Without git headers, a file is created or deleted when its side is /dev/null or its one hunk
 *   is empty on that side (`diff -N` names a missing file by its own name).
 * - Text lines outside file sections (a commit message, a diffstat, `Only in ...`) are skipped.
 */
import { explainUnsafeRelativePath } from "@/lib/util/relative-path";
import {
  headerName,
  prefixesOf,
  splitBinaryDiffers,
  splitGitHeader,
  stripPair,
  unquote,
  withoutPrefix,
} from "./diff-header-names";
import { ForeignFormatError } from "./types";

/** A diff larger than this is refused (the largest SWE-bench gold patch is about 0.2 MB). */
export const MAX_PATCH_BYTES = 20 * 1024 * 1024;
/** A diff touching more files than this is refused. */
export const MAX_PATCH_FILES = 5_000;
/** A header line (`diff --git`, `---`, `@@`, `Binary files`) longer than this is refused: no path is near it. */
export const MAX_HEADER_LINE_CHARS = 64 * 1024;

export type PatchFileKind = "created" | "deleted" | "updated" | "renamed";

export interface HunkLine {
  op: " " | "-" | "+";
  /** The line as in the file, with its `\n`; without one for a last line marked `\ No newline at end of file`. */
  text: string;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The text after the second `@@` (git puts the enclosing function there), trimmed. */
  section: string;
  /** 1-based line of the `@@` header in the diff. */
  line: number;
  lines: HunkLine[];
}

export interface PatchFile {
  /** The file's path after the change (before it, for a deleted file). */
  path: string;
  /** The path it was renamed or copied from; null otherwise. */
  oldPath: string | null;
  kind: PatchFileKind;
  /** A binary change: its path and kind are known, its contents are not. */
  binary: boolean;
  hunks: Hunk[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;
const GIT_EXTENDED_HEADER =
  /^(old mode|new mode|deleted file mode|new file mode|copy from|copy to|rename from|rename to|similarity index|dissimilarity index|index) /;
// `literal N` / `delta N` and their base85 lines (a length letter, then base85 digits).
const GIT_BINARY_BODY = /^(?:(?:literal|delta) \d+|[A-Za-z][0-9A-Za-z!#$%&()*+;<=>?@^_`{|}~-]*|)$/;

/** Every file of a unified diff, in order; `source` names the diff in errors (`preds.jsonl line 3`). */
export function parseUnifiedDiff(text: string, source: string): PatchFile[] {
  if (Buffer.byteLength(text) > MAX_PATCH_BYTES) {
    throw new ForeignFormatError(source, null, `the diff is over ${MAX_PATCH_BYTES} bytes`);
  }
  return new DiffParser(text, source).files();
}

class DiffParser {
  private readonly lines: string[];
  private i = 0;

  constructor(
    text: string,
    private readonly source: string,
  ) {
    const crlf = /^[^\n]*\r\n/.test(text);
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    this.lines = crlf ? lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l)) : lines;
  }

  files(): PatchFile[] {
    const files: PatchFile[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      let file: PatchFile | null = null;
      if (line.startsWith("diff --git ")) file = this.gitFile();
      else if (line.startsWith("diff --cc ") || line.startsWith("diff --combined ")) {
        this.fail(this.i, "a combined (merge) diff cannot be applied to one tree");
      } else if (line.startsWith("--- ") && this.lines[this.i + 1]?.startsWith("+++ ")) file = this.plainFile();
      else if (splitBinaryDiffers(line) !== null) file = this.plainBinary();
      else if (line.startsWith("@@ ")) this.fail(this.i, "a hunk with no `---`/`+++` file header before it");
      else this.i++;
      if (file === null) continue;
      files.push(file);
      if (files.length > MAX_PATCH_FILES) this.fail(this.i, `the diff changes more than ${MAX_PATCH_FILES} files`);
    }
    return files;
  }

  private fail(index: number, message: string): never {
    throw new ForeignFormatError(this.source, `line ${index + 1}`, message);
  }

  /** Line `index`, read as a header: refused when too long for one. */
  private header(index: number): string {
    const line = this.lines[index]!;
    if (line.length > MAX_HEADER_LINE_CHARS) {
      this.fail(
        index,
        `a header line of ${line.length} characters (over ${MAX_HEADER_LINE_CHARS}): ${line.slice(0, 60)}...`,
      );
    }
    return line;
  }

  private safePath(name: string, index: number): string {
    const problem = explainUnsafeRelativePath(name);
    if (problem) this.fail(index, `path "${name}" ${problem}`);
    return name;
  }

  /** `diff --git a/x b/x`, its extended headers, then hunks or a binary marker. */
  private gitFile(): PatchFile {
    const start = this.i;
    const header = splitGitHeader(this.header(start).slice("diff --git ".length));
    const [oldPrefix, newPrefix] = header ? prefixesOf(header[0], header[1]) : ["a/", "b/"];
    const ext = new Map<string, string>();
    this.i++;
    for (let m; (m = GIT_EXTENDED_HEADER.exec(this.lines[this.i] ?? "")); this.i++) {
      ext.set(m[1]!, this.header(this.i).slice(m[0].length));
    }
    let oldName = header ? withoutPrefix(header[0], oldPrefix) : null;
    let newName = header ? withoutPrefix(header[1], newPrefix) : null;
    let binary = false;
    const line = this.lines[this.i] ?? "";
    if (line.startsWith("--- ") && this.lines[this.i + 1]?.startsWith("+++ ")) {
      const a = headerName(this.header(this.i).slice(4));
      const b = headerName(this.header(this.i + 1).slice(4));
      oldName = a === null ? null : withoutPrefix(a, oldPrefix);
      newName = b === null ? null : withoutPrefix(b, newPrefix);
      this.i += 2;
    } else if (splitBinaryDiffers(line) !== null) {
      this.header(this.i);
      binary = true;
      this.i++;
    } else if (line === "GIT binary patch") {
      binary = true;
      for (this.i++; this.i < this.lines.length && GIT_BINARY_BODY.test(this.lines[this.i]!); this.i++);
    }
    const from = ext.get("rename from") ?? ext.get("copy from");
    const to = ext.get("rename to") ?? ext.get("copy to");
    if (from !== undefined && to !== undefined) {
      oldName = unquote(from);
      newName = unquote(to);
    }
    let kind: PatchFileKind = "updated";
    if (ext.has("new file mode") || ext.has("copy to") || (oldName === null && newName !== null)) kind = "created";
    else if (ext.has("deleted file mode") || newName === null) kind = "deleted";
    else if (ext.has("rename to")) kind = "renamed";
    const path = kind === "deleted" ? oldName : newName;
    if (path === null) this.fail(start, "a `diff --git` section whose file name cannot be read");
    const hunks = binary ? [] : this.hunks();
    const renamedFrom = kind === "renamed" || ext.has("copy from") ? oldName : null;
    return {
      path: this.safePath(path, start),
      oldPath: renamedFrom === null ? null : this.safePath(renamedFrom, start),
      kind,
      binary,
      hunks,
    };
  }

  /** `--- old` / `+++ new` without a git header (`diff -u`, `diff -ru`). */
  private plainFile(): PatchFile {
    const start = this.i;
    const [oldName, newName] = stripPair(
      headerName(this.header(start).slice(4)),
      headerName(this.header(start + 1).slice(4)),
    );
    this.i += 2;
    const hunks = this.hunks();
    // `diff -N` names a missing side by its own name (dated 1970), not /dev/null: an empty side says it.
    const only = hunks.length === 1 ? hunks[0]! : null;
    const created = oldName === null || (only !== null && only.oldStart === 0 && only.oldLines === 0);
    const deleted = newName === null || (only !== null && only.newStart === 0 && only.newLines === 0);
    const kind: PatchFileKind = created ? "created" : deleted ? "deleted" : "updated";
    const path = kind === "deleted" ? oldName : newName;
    if (path === null) this.fail(start, "both sides of the file header are /dev/null");
    return { path: this.safePath(path, start), oldPath: null, kind, binary: false, hunks };
  }

  /** `Binary files old/x and new/x differ` from `diff -r`. */
  private plainBinary(): PatchFile {
    const start = this.i++;
    const [a, b] = splitBinaryDiffers(this.header(start))!;
    const [oldName, newName] = stripPair(headerName(a), headerName(b));
    const kind: PatchFileKind = oldName === null ? "created" : newName === null ? "deleted" : "updated";
    const path = kind === "deleted" ? oldName : newName;
    if (path === null) this.fail(start, "both sides of the binary file line are /dev/null");
    return { path: this.safePath(path, start), oldPath: null, kind, binary: true, hunks: [] };
  }

  private hunks(): Hunk[] {
    const hunks: Hunk[] = [];
    while (this.lines[this.i]?.startsWith("@@ ")) hunks.push(this.hunk());
    const next = this.lines[this.i];
    if (hunks.length > 0 && next !== undefined && /^[-+ ]/.test(next) && next !== "-- " && !next.startsWith("--- ")) {
      this.fail(this.i, `more lines than the hunk header at line ${hunks.at(-1)!.line} counts`);
    }
    return hunks;
  }

  private hunk(): Hunk {
    const start = this.i;
    const m = HUNK_HEADER.exec(this.header(start));
    if (!m) this.fail(start, `a malformed hunk header: ${this.lines[start]!.slice(0, 100)}`);
    const hunk: Hunk = {
      oldStart: Number(m[1]),
      oldLines: m[2] === undefined ? 1 : Number(m[2]),
      newStart: Number(m[3]),
      newLines: m[4] === undefined ? 1 : Number(m[4]),
      section: m[5]!.trim(),
      line: start + 1,
      lines: [],
    };
    let olds = 0;
    let news = 0;
    for (this.i++; olds < hunk.oldLines || news < hunk.newLines; this.i++) {
      const line = this.lines[this.i];
      if (line === undefined || !/^[-+ \\]|^$/.test(line)) {
        this.fail(
          start,
          `the hunk ends early: its header counts ${hunk.oldLines} old and ${hunk.newLines} new lines, the diff has ${olds} and ${news}`,
        );
      }
      if (line.startsWith("\\")) {
        this.noNewlineAtEnd(hunk);
        continue;
      }
      const op = (line[0] ?? " ") as HunkLine["op"];
      if (op !== "+") olds++;
      if (op !== "-") news++;
      if (olds > hunk.oldLines || news > hunk.newLines) {
        this.fail(this.i, `more lines than the hunk header at line ${start + 1} counts`);
      }
      hunk.lines.push({ op, text: `${line.slice(1)}\n` });
    }
    if (this.lines[this.i]?.startsWith("\\")) {
      this.noNewlineAtEnd(hunk);
      this.i++;
    }
    return hunk;
  }

  /** `\ No newline at end of file`: the line before it has no line end. */
  private noNewlineAtEnd(hunk: Hunk): void {
    const last = hunk.lines.at(-1);
    if (last === undefined) this.fail(this.i, "a `\\ No newline at end of file` marker with no line before it");
    last.text = last.text.slice(0, -1);
  }
}
