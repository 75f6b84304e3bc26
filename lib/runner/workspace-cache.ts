/**
 * Run workspaces from a folder cache. Each repository snapshot is written out once into
 * `<root>/v1-<key>/files/` (built in a scratch folder renamed into place, so a folder there is
 * always complete). A run's workspace is then either a used workspace of the same repository taken
 * from the pool (`<root>/pool/`), where `release` put it back after resetting it to the snapshot
 * (workspace-reset.ts), or else a `cp -a` copy of the cached files; the instance's setup is applied
 * over it. The "before" manifest comes from the source, not from reading the workspace back.
 *
 * Agents never see the cache: callers hide its root from the sandbox (it holds the original
 * files, answers included), and a workspace shares no inode with it. Cached and pooled folders are
 * stamped when written and checked before use (tree-stamp.ts): an edit, deletion or planted file
 * since then gets the folder rebuilt or dropped.
 */
import { randomBytes } from "node:crypto";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { explainUnsafeRelativePath } from "@/lib/util/relative-path";
import type { WorkspaceFile, WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { AppError } from "@/lib/errors/app-error";
import { copyInto, removeTree } from "./copy-tree";
import { readStamp, stampNow, untouchedSince, writeStamp } from "./tree-stamp";
import { S_IFLNK, S_IFMT, S_IFREG, writeWorkspace } from "./workspace";
import { resetToBase } from "./workspace-reset";

export interface WorkspaceSource {
  /** Names the base files' content (a repository snapshot's digest): same key, same files. */
  key: string;
  /** The repository snapshot. Entries other than regular files and symlinks are not materialized. */
  base: WorkspaceFiles;
  /** Applied over the base in each run's workspace (an instance's setup): new content, or null to delete. */
  overlay: Map<string, WorkspaceFile | null>;
}

export interface WorkspaceCache {
  readonly root: string;
  /**
   * Fills `dir` (missing or empty) with the source's files and returns them as they now are there:
   * the run's "before" manifest.
   */
  materialize(source: WorkspaceSource, dir: string): Promise<WorkspaceFiles>;
  /**
   * Hands back a workspace this cache materialized once its run is over and recorded: it is reset
   * and pooled for the next run on the same repository, or removed. Only for workspaces no process
   * can still write to (a bubblewrap run's); otherwise remove them.
   */
  release(dir: string): Promise<"pooled" | "removed">;
}

const FORMAT = "v1";
/** No "-": pooled workspaces are named `<format>-<key>-<random>`. */
const KEY_PATTERN = /^[A-Za-z0-9_]{1,128}$/;
/** Reset workspaces kept per repository (more than runs ever go in parallel on one repository). */
const POOL_PER_KEY = 4;
/**
 * A change the agent makes has a ctime at most one clock tick (<= 10 ms) before it was made, and
 * the agent starts after the workspace is handed over: entries with a ctime this long before the
 * handover are unchanged.
 */
const CTIME_MARGIN_MS = 50;

/** How the file reads back from disk: only the permission bits a write sets, regular or symlink. */
function normalized(file: WorkspaceFile): WorkspaceFile | null {
  const type = file.mode & S_IFMT;
  if (type === S_IFLNK) return { data: file.data, mode: S_IFLNK | 0o777 };
  if (type === S_IFREG || type === 0) return { data: file.data, mode: S_IFREG | (file.mode & 0o777) };
  return null;
}

function materializable(files: WorkspaceFiles): WorkspaceFiles {
  const out: WorkspaceFiles = new Map();
  for (const [rel, file] of files) {
    const kept = normalized(file);
    if (kept) out.set(rel, kept);
  }
  return out;
}

/** Writes the base into a scratch folder and renames it into place (another process may win the race). */
async function build(root: string, folder: string, base: WorkspaceFiles): Promise<void> {
  const scratch = path.join(root, `.build-${randomBytes(6).toString("hex")}`);
  try {
    await writeWorkspace(path.join(scratch, "files"), base);
    await writeStamp(path.join(scratch, "stamp.json"), stampNow(base.size));
    await fs.rename(scratch, folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST" && error.code !== "ENOTEMPTY") throw error;
    });
  } finally {
    await removeTree(scratch);
  }
}

/** Refuses a setup path that is unsafe or would be written through a symlink. */
function checkOverlayPath(dir: string, rel: string): string {
  const problem = explainUnsafeRelativePath(rel);
  if (problem) throw new AppError("INVALID_INPUT", `setup path "${rel}" ${problem}`);
  const parts = rel.split("/");
  for (let i = 1; i < parts.length; i++) {
    const stat = fsSync.lstatSync(path.join(dir, ...parts.slice(0, i)), { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) throw new AppError("INVALID_INPUT", `setup path "${rel}" goes through a symlink`);
  }
  return path.join(dir, ...parts);
}

async function applyOverlay(dir: string, overlay: Map<string, WorkspaceFile | null>): Promise<void> {
  for (const [rel, file] of overlay) {
    const target = checkOverlayPath(dir, rel);
    await fs.rm(target, { recursive: true, force: true });
    const kept = file && normalized(file);
    if (!kept) continue;
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (kept.mode === (S_IFLNK | 0o777)) await fs.symlink(kept.data.toString("utf8"), target);
    else {
      await fs.writeFile(target, kept.data, { flag: "wx" });
      await fs.chmod(target, kept.mode & 0o777);
    }
  }
}

/** The files a run's workspace starts with: the base with the overlay applied, as they read back from disk. */
export function withOverlay(base: WorkspaceFiles, overlay: Map<string, WorkspaceFile | null>): WorkspaceFiles {
  const files = new Map(base);
  for (const [rel, file] of overlay) {
    // A setup path replaces whatever was there, a whole folder included.
    for (const name of files.keys()) if (name.startsWith(`${rel}/`)) files.delete(name);
    const kept = file && normalized(file);
    if (kept) files.set(rel, kept);
    else files.delete(rel);
  }
  return new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A workspace handed out, as `release` needs it. */
interface Handed {
  key: string;
  base: WorkspaceFiles;
  filesDir: string;
  overlayPaths: Set<string>;
  /** When it was handed over, by the wall clock (ctimes) and the monotonic clock (to catch clock steps). */
  wallMs: number;
  monoMs: number;
}

export function createWorkspaceCache(root: string): WorkspaceCache {
  const resolvedRoot = path.resolve(root);
  const poolDir = path.join(resolvedRoot, "pool");
  /** Key -> the checked `files/` folder, once per process. */
  const ready = new Map<string, Promise<string>>();
  const handed = new Map<string, Handed>();

  const ensure = async (key: string, base: WorkspaceFiles): Promise<string> => {
    const folder = path.join(resolvedRoot, `${FORMAT}-${key}`);
    const filesDir = path.join(folder, "files");
    for (let attempt = 0; attempt < 2; attempt++) {
      const stamp = await readStamp(path.join(folder, "stamp.json"));
      if (stamp && (await untouchedSince(filesDir, stamp))) return filesDir;
      if (fsSync.existsSync(folder)) {
        // Damaged or edited: move it aside first, so no other run copies it half-removed.
        const aside = path.join(resolvedRoot, `.stale-${randomBytes(6).toString("hex")}`);
        await fs.rename(folder, aside).catch(() => undefined);
        await removeTree(aside);
      }
      await fs.mkdir(resolvedRoot, { recursive: true });
      await build(resolvedRoot, folder, base);
    }
    throw new AppError("INTERNAL", `workspace cache ${folder} could not be built`);
  };

  const pooled = async (key: string) =>
    (await fs.readdir(poolDir).catch(() => [] as string[])).filter(
      (name) => name.startsWith(`${FORMAT}-${key}-`) && !name.endsWith(".json"),
    );

  /** Moves a pooled workspace of `key` onto the empty folder `dir`; false when there is none fit to use. */
  const claim = async (key: string, dir: string, files: number): Promise<boolean> => {
    for (const name of await pooled(key)) {
      try {
        await fs.rename(path.join(poolDir, name), dir);
      } catch {
        continue; // taken by another run first, or on another file system
      }
      const stampFile = path.join(poolDir, `${name}.json`);
      const stamp = await readStamp(stampFile);
      await fs.rm(stampFile, { force: true });
      if (stamp && stamp.files === files && (await untouchedSince(dir, stamp))) return true;
      await removeTree(dir);
      await fs.mkdir(dir);
    }
    return false;
  };

  return {
    root: resolvedRoot,
    async materialize(source, dir) {
      if (!KEY_PATTERN.test(source.key)) throw new AppError("INVALID_INPUT", `workspace key "${source.key}"`);
      const base = materializable(source.base);
      let filesDir = ready.get(source.key);
      if (!filesDir) {
        filesDir = ensure(source.key, base);
        ready.set(source.key, filesDir);
        filesDir.catch(() => ready.delete(source.key));
      }
      const reference = await filesDir;
      await fs.mkdir(dir, { recursive: true });
      if ((await fs.readdir(dir)).length > 0) throw new AppError("CONFLICT", `${dir} is not empty`);
      if (!(await claim(source.key, dir, base.size))) await copyInto(reference, dir);
      await applyOverlay(dir, source.overlay);
      handed.set(path.resolve(dir), {
        key: source.key,
        base,
        filesDir: reference,
        overlayPaths: new Set(source.overlay.keys()),
        wallMs: Date.now(),
        monoMs: performance.now(),
      });
      return withOverlay(base, source.overlay);
    },

    async release(dir) {
      const resolved = path.resolve(dir);
      const run = handed.get(resolved);
      handed.delete(resolved);
      const name = `${FORMAT}-${run?.key}-${randomBytes(6).toString("hex")}`;
      const stampFile = path.join(poolDir, `${name}.json`);
      try {
        if (!run || (await pooled(run.key)).length >= POOL_PER_KEY) throw new Error("not pooled");
        // Trust ctimes only if the wall clock kept pace with the monotonic one (no step in between).
        const drift = Math.abs(Date.now() - run.wallMs - (performance.now() - run.monoMs));
        await resetToBase(resolved, run.base, {
          referenceDir: run.filesDir,
          unchangedBeforeMs: drift < 1000 ? run.wallMs - CTIME_MARGIN_MS : null,
          overlayPaths: run.overlayPaths,
        });
        await fs.mkdir(poolDir, { recursive: true });
        // The stamp first: a folder in the pool always has one.
        await writeStamp(stampFile, stampNow(run.base.size));
        await fs.rename(resolved, path.join(poolDir, name));
        return "pooled";
      } catch {
        await fs.rm(stampFile, { force: true });
        await removeTree(resolved);
        return "removed";
      }
    },
  };
}
