/**
 * A run's workspace as files: the full before/after manifest by content (nothing skipped, the
 * evaluation filters caches), and writing one out. Copies come from the workspace cache
 * (workspace-cache.ts, copy-tree.ts).
 */
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { explainUnsafeRelativePath } from "@/lib/util/relative-path";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { AppError } from "@/lib/errors/app-error";
import { hashOpened } from "@/lib/util/untrusted-files";
import { walkUntrusted, type WalkEntry } from "@/lib/util/untrusted-walk";
import { FILES_PER_YIELD, yieldToEventLoop } from "./copy-tree";

export const S_IFMT = 0o170000;
export const S_IFREG = 0o100000;
export const S_IFLNK = 0o120000;

export const isSymlinkMode = (mode: number) => (mode & S_IFMT) === S_IFLNK;

/** Content kept per workspace file by default; a larger file is kept by size and sha256 only. */
export const DEFAULT_MAX_STORED_FILE_BYTES = 8 * 1024 * 1024;
/** The longest workspace path a bundle holds (docs/run-bundle.md). */
const MAX_PATH_CHARS = 1024;

export interface ScanOptions {
  /** Files larger than this are hashed by streaming and kept by reference (`omitted`), not read into memory. */
  maxStoredFileBytes?: number;
  /** Entries a bundle cannot hold (unsafe or non-UTF-8 names, unreadable files), with why. */
  onSkip?(rel: string, reason: string): void;
}

/**
 * Every file under `dir`, by relative POSIX path. Regular files keep their permission bits
 * (`0o100000 | perm`); a symlink is recorded with mode `0o120777` and its target as content (so a
 * retargeted link is a changed file), never followed. Other special files (FIFOs, sockets,
 * devices) are recorded empty with their own mode, so they still show up as created, and are
 * never opened. Empty directories do not appear. The agent controls this folder: nothing is read
 * through a link (lib/util/untrusted-files.ts), and a file over `maxStoredFileBytes` is hashed
 * by streaming and kept as size and sha256 only.
 */
export async function scanWorkspace(dir: string, options: ScanOptions = {}): Promise<WorkspaceFiles> {
  const files: WorkspaceFiles = new Map();
  const cap = options.maxStoredFileBytes ?? DEFAULT_MAX_STORED_FILE_BYTES;
  const skip = (rel: string, reason: string) => options.onSkip?.(rel, reason);
  /** A FIFO, socket or device: recorded empty with its mode, never opened. */
  const special = (entry: WalkEntry) => {
    const stat = entry.lstat();
    if (!stat) return;
    // Listed as one kind, now another (a process still at work): its content is not known.
    if (stat.isFile() || stat.isSymbolicLink()) return skip(entry.rel, "not recorded: it changed while it was read");
    files.set(entry.rel, { data: Buffer.alloc(0), mode: (stat.mode & S_IFMT) | (stat.mode & 0o7777) });
  };
  // Only a file over the cap costs a promise (its streamed hash): with a promise (and an lstat)
  // per file, a 5,000-file scan took ~150 ms, not ~100 (bench:runner).
  const visit = (entry: WalkEntry): Promise<void> | void => {
    const problem = explainUnsafeRelativePath(entry.rel);
    if (problem || entry.rel.length > MAX_PATH_CHARS) {
      skip(entry.rel, `not recorded: the path ${problem ?? `is longer than ${MAX_PATH_CHARS} characters`}`);
      return;
    }
    if (entry.kind === "symlink") {
      const target = entry.readlink();
      if (target === null) return special(entry);
      files.set(entry.rel, { data: Buffer.from(target), mode: S_IFLNK | 0o777 });
      return;
    }
    if (entry.kind !== "file") return special(entry);
    const opened = entry.open();
    // Replaced since it was listed: recorded as what it is now, still unread.
    if (!opened.ok) return opened.kind === "missing" ? undefined : special(entry);
    const mode = (opened.mode & S_IFMT) | (opened.mode & 0o7777);
    if (opened.size <= cap) {
      try {
        files.set(entry.rel, { data: readOpenedSync(opened.fd, opened.size), mode });
      } catch (error) {
        skip(entry.rel, `not recorded: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        fsSync.closeSync(opened.fd);
      }
      return;
    }
    return hashOpened(opened, entry.rel)
      .then(({ size, sha256 }) => void files.set(entry.rel, { data: Buffer.alloc(0), mode, omitted: { size, sha256 } }))
      .catch((error: unknown) =>
        skip(entry.rel, `not recorded: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => fsSync.closeSync(opened.fd));
  };
  await walkUntrusted(dir, "", visit, { sorted: true, onSkip: (rel, reason) => skip(rel, `not recorded: ${reason}`) });
  return files;
}

/** A small regular file's bytes (it may shrink while read; it is never read past `size`). */
function readOpenedSync(fd: number, size: number): Buffer {
  const buffer = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    const bytes = fsSync.readSync(fd, buffer, filled, size - filled, filled);
    if (bytes === 0) break;
    filled += bytes;
  }
  return buffer.subarray(0, filled);
}

export interface WriteWorkspaceResult {
  written: number;
  /** Special files (FIFOs, sockets, devices) that are recorded but not recreated. */
  skipped: string[];
}

/**
 * Writes `files` into `dir`, which must be missing or empty (so no existing symlink can redirect a
 * write). Paths must be safe relative paths; symlinks are created last, so none is followed while
 * writing. Permission bits are applied without setuid/setgid/sticky.
 */
export async function writeWorkspace(dir: string, files: WorkspaceFiles): Promise<WriteWorkspaceResult> {
  await fs.mkdir(dir, { recursive: true });
  if ((await fs.readdir(dir)).length > 0) throw new AppError("CONFLICT", `${dir} is not empty`);
  for (const rel of files.keys()) {
    const problem = explainUnsafeRelativePath(rel);
    if (problem) throw new AppError("INVALID_INPUT", `workspace path "${rel}" ${problem}`);
  }
  const ordered = [...files.entries()].sort(
    ([, a], [, b]) => Number(isSymlinkMode(a.mode)) - Number(isSymlinkMode(b.mode)),
  );
  const result: WriteWorkspaceResult = { written: 0, skipped: [] };
  const made = new Set<string>([dir]);
  for (const [rel, file] of ordered) {
    const target = path.join(dir, ...rel.split("/"));
    const parent = path.dirname(target);
    if (!made.has(parent)) {
      fsSync.mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    const type = file.mode & S_IFMT;
    if (type === S_IFLNK) fsSync.symlinkSync(file.data.toString("utf8"), target);
    else if (type === S_IFREG || type === 0) {
      // wx: never through a link or over a file (a manifest naming one path twice is refused).
      fsSync.writeFileSync(target, file.data, { flag: "wx" });
      fsSync.chmodSync(target, file.mode & 0o777);
    } else {
      result.skipped.push(rel);
      continue;
    }
    result.written += 1;
    if (result.written % FILES_PER_YIELD === 0) await yieldToEventLoop();
  }
  return result;
}
