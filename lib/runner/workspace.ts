/**
 * A run's workspace as files: the full before/after manifest by content (nothing skipped, the
 * evaluation filters caches), and writing one out. Copies come from the workspace cache
 * (workspace-cache.ts, copy-tree.ts).
 */
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { explainUnsafeRelativePath } from "@/lib/bundle/paths";
import type { WorkspaceFiles } from "@/lib/bundle/write";
import { AppError } from "@/lib/errors/app-error";
import { FILES_PER_YIELD, yieldToEventLoop } from "./copy-tree";

export const S_IFMT = 0o170000;
export const S_IFREG = 0o100000;
export const S_IFLNK = 0o120000;

export const isSymlinkMode = (mode: number) => (mode & S_IFMT) === S_IFLNK;

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Every file under `dir`, by relative POSIX path. Regular files keep their permission bits
 * (`0o100000 | perm`); a symlink is recorded with mode `0o120777` and its target as content (so a
 * retargeted link is a changed file). Other special files (FIFOs, sockets, devices) are recorded
 * empty with their own mode, so they still show up as created. Empty directories do not appear.
 */
export async function scanWorkspace(dir: string): Promise<WorkspaceFiles> {
  const files: WorkspaceFiles = new Map();
  let sinceYield = 0;
  // Synchronous calls, yielding every FILES_PER_YIELD files: one promise per file made this 10x slower.
  const walk = async (abs: string, prefix: string): Promise<void> => {
    const entries = fsSync.readdirSync(abs, { withFileTypes: true }).sort(byName);
    for (const entry of entries) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      const full = path.join(abs, entry.name);
      if (entry.isDirectory()) await walk(full, rel);
      else if (entry.isSymbolicLink()) {
        files.set(rel, { data: Buffer.from(fsSync.readlinkSync(full)), mode: S_IFLNK | 0o777 });
      } else {
        const stat = fsSync.lstatSync(full);
        const mode = (stat.mode & S_IFMT) | (stat.mode & 0o7777);
        files.set(rel, { data: entry.isFile() ? fsSync.readFileSync(full) : Buffer.alloc(0), mode });
      }
      if (++sinceYield >= FILES_PER_YIELD) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
    }
  };
  await walk(dir, "");
  return files;
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
