/**
 * Bringing a used workspace back to its repository's files, so the next run on that repository
 * reuses it instead of copying thousands of files again. Creating many files right after deleting
 * many is what makes a fresh copy slow here: on ext4 without a journal, as on this
 * machine, the inode allocator steps over every inode freed in the last 30 s, and a copy of 5,000
 * files took 2 to 10 s instead of 0.2 s. A reset touches only what the run changed.
 */
import fsSync from "node:fs";
import path from "node:path";
import type { WorkspaceFile, WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { FILES_PER_YIELD, yieldToEventLoop } from "./copy-tree";
import { S_IFLNK, S_IFMT } from "./workspace";

export interface ResetOptions {
  /** The cache's copy of the files: folder modes and file mtimes are taken from it. */
  referenceDir: string;
  /**
   * Entries whose ctime is before this (ms since the epoch) are unchanged since the workspace was
   * made, so they are not read; null reads and compares every file.
   */
  unchangedBeforeMs: number | null;
  /** Paths the run's setup wrote over the files: always compared. */
  overlayPaths: ReadonlySet<string>;
}

/** Every folder that holds a file of `files` (relative paths, the root excluded). */
function foldersOf(files: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const rel of files) {
    for (let i = rel.indexOf("/"); i !== -1; i = rel.indexOf("/", i + 1)) folders.add(rel.slice(0, i));
  }
  return folders;
}

function matches(full: string, stat: fsSync.Stats, want: WorkspaceFile, trusted: boolean): boolean {
  if (((stat.mode & S_IFMT) | (stat.mode & 0o7777)) !== want.mode) return false;
  if (trusted) return true;
  if ((want.mode & S_IFMT) === S_IFLNK) return fsSync.readlinkSync(full) === want.data.toString("utf8");
  return stat.size === want.data.length && fsSync.readFileSync(full).equals(want.data);
}

function write(target: string, file: WorkspaceFile, reference: string): void {
  if ((file.mode & S_IFMT) === S_IFLNK) {
    fsSync.symlinkSync(file.data.toString("utf8"), target);
    return;
  }
  fsSync.writeFileSync(target, file.data, { flag: "wx" });
  fsSync.chmodSync(target, file.mode & 0o777);
  const { atime, mtime } = fsSync.lstatSync(reference);
  fsSync.utimesSync(target, atime, mtime);
}

/**
 * Makes `dir` hold exactly `files` (contents, modes, symlinks; no other entries; folder modes as in
 * the reference). Returns how many entries it removed or rewrote. Throws when something cannot be
 * put back; the caller then removes the folder.
 */
export async function resetToBase(dir: string, files: WorkspaceFiles, options: ResetOptions): Promise<number> {
  const folders = foldersOf(files.keys());
  const rootMode = fsSync.lstatSync(options.referenceDir).mode & 0o7777;
  if ((fsSync.lstatSync(dir).mode & 0o7777) !== rootMode) fsSync.chmodSync(dir, rootMode);
  const kept = new Set<string>();
  let changed = 0;
  let seen = 0;
  const walk = async (abs: string, prefix: string): Promise<void> => {
    for (const entry of fsSync.readdirSync(abs, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      const full = path.join(abs, entry.name);
      const stat = fsSync.lstatSync(full);
      if (++seen % FILES_PER_YIELD === 0) await yieldToEventLoop();
      if (stat.isDirectory() && folders.has(rel)) {
        const mode = fsSync.lstatSync(path.join(options.referenceDir, rel)).mode & 0o7777;
        if ((stat.mode & 0o7777) !== mode) fsSync.chmodSync(full, mode);
        await walk(full, rel);
        continue;
      }
      const want = files.get(rel);
      const trusted =
        options.unchangedBeforeMs !== null &&
        stat.ctimeMs < options.unchangedBeforeMs &&
        !options.overlayPaths.has(rel);
      if (want && !stat.isDirectory() && matches(full, stat, want, trusted)) {
        kept.add(rel);
        continue;
      }
      fsSync.rmSync(full, { recursive: true, force: true });
      changed += 1;
    }
  };
  await walk(dir, "");
  for (const folder of [...folders].sort()) {
    const full = path.join(dir, folder);
    if (fsSync.existsSync(full)) continue;
    fsSync.mkdirSync(full);
    fsSync.chmodSync(full, fsSync.lstatSync(path.join(options.referenceDir, folder)).mode & 0o7777);
  }
  for (const [rel, file] of files) {
    if (kept.has(rel)) continue;
    write(path.join(dir, ...rel.split("/")), file, path.join(options.referenceDir, ...rel.split("/")));
    changed += 1;
    if (changed % FILES_PER_YIELD === 0) await yieldToEventLoop();
  }
  return changed;
}
