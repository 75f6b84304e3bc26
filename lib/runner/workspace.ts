/**
 * A run's workspace as files: the full before/after manifest by content (nothing skipped, the
 * evaluation filters caches), writing one out, and copying a repository into a fresh workspace.
 */
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { explainUnsafeRelativePath } from "@/lib/bundle/paths";
import type { WorkspaceFiles } from "@/lib/bundle/write";
import { AppError } from "@/lib/errors/app-error";

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
  const walk = async (abs: string, prefix: string): Promise<void> => {
    const entries = (await fs.readdir(abs, { withFileTypes: true })).sort(byName);
    for (const entry of entries) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      const full = path.join(abs, entry.name);
      if (entry.isDirectory()) await walk(full, rel);
      else if (entry.isSymbolicLink()) {
        files.set(rel, { data: Buffer.from(await fs.readlink(full)), mode: S_IFLNK | 0o777 });
      } else {
        const stat = await fs.lstat(full);
        const mode = (stat.mode & S_IFMT) | (stat.mode & 0o7777);
        files.set(rel, { data: entry.isFile() ? await fs.readFile(full) : Buffer.alloc(0), mode });
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
  for (const [rel, file] of ordered) {
    const target = path.join(dir, ...rel.split("/"));
    await fs.mkdir(path.dirname(target), { recursive: true });
    const type = file.mode & S_IFMT;
    if (type === S_IFLNK) await fs.symlink(file.data.toString("utf8"), target);
    else if (type === S_IFREG || type === 0) {
      // wx: never through a link or over a file (a manifest naming one path twice is refused).
      await fs.writeFile(target, file.data, { flag: "wx" });
      await fs.chmod(target, file.mode & 0o777);
    } else {
      result.skipped.push(rel);
      continue;
    }
    result.written += 1;
  }
  return result;
}

export interface CopyResult {
  /** reflink: copy-on-write clones (fast, no data copied); copy: bytes copied. */
  method: "reflink" | "copy";
  durationMs: number;
}

async function firstRegularFile(dir: string): Promise<string | null> {
  for (const entry of (await fs.readdir(dir, { withFileTypes: true })).sort(byName)) {
    const full = path.join(dir, entry.name);
    if (entry.isFile()) return full;
    if (entry.isDirectory()) {
      const found = await firstRegularFile(full);
      if (found) return found;
    }
  }
  return null;
}

/** Whether this file system clones files (tried once on a real file, into a scratch name). */
async function canClone(sample: string | null, scratchDir: string): Promise<boolean> {
  if (!sample) return false;
  const scratch = path.join(scratchDir, `.reflink-probe-${process.pid}-${Date.now()}`);
  try {
    await fs.copyFile(sample, scratch, constants.COPYFILE_FICLONE_FORCE);
    return true;
  } catch {
    return false;
  } finally {
    await fs.rm(scratch, { force: true });
  }
}

/**
 * Copies a folder (modes kept, symlinks copied as links with their target verbatim) into `to`,
 * which must not exist yet. Uses copy-on-write clones where the file system has them (btrfs, XFS,
 * APFS), a plain copy elsewhere, and says which.
 */
export async function copyWorkspace(from: string, to: string): Promise<CopyResult> {
  const started = performance.now();
  try {
    await fs.access(to);
    throw new AppError("CONFLICT", `${to} already exists`);
  } catch (error) {
    if (error instanceof AppError) throw error;
  }
  await fs.mkdir(path.dirname(to), { recursive: true });
  const clone = await canClone(await firstRegularFile(from), path.dirname(to));
  const options = { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false };
  let method: CopyResult["method"] = clone ? "reflink" : "copy";
  try {
    await fs.cp(from, to, { ...options, mode: clone ? constants.COPYFILE_FICLONE : 0 });
  } catch {
    // fs.cp refuses sockets and FIFOs (and a clone can fail midway): copy plainly what can be copied.
    await fs.rm(to, { recursive: true, force: true });
    await fs.cp(from, to, { ...options, filter: isCopyable });
    method = "copy";
  }
  return { method, durationMs: Math.round(performance.now() - started) };
}

async function isCopyable(src: string): Promise<boolean> {
  const stat = await fs.lstat(src);
  return stat.isFile() || stat.isDirectory() || stat.isSymbolicLink();
}
