/**
 * Environment snapshots (EnvironmentSnapshotSchema), taken before and after a run: the workspace's
 * git state, installed Python and system packages, files written outside the workspace (the run's
 * HOME and TMPDIR, plus any folders the caller watches) and processes still tied to the run.
 * Anything that cannot be read is null ("not captured"), never an empty "unchanged".
 */
import { createHash } from "node:crypto";
import { closeSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { EnvironmentSnapshotSchema, type EnvironmentSnapshot } from "@/lib/bundle/schema";
import { describeKind, hashOpened, openUntrustedFile, readUntrusted } from "@/lib/util/untrusted-files";
import { walkUntrusted } from "@/lib/util/untrusted-walk";
import { capturePackages } from "./packages";
import { execText } from "./exec-text";

export interface CaptureOptions {
  workspaceDir: string;
  runDir: string;
  /** More folders outside the workspace to hash (e.g. the real HOME when running without bubblewrap). */
  watchDirs?: string[];
  /** Host process groups of the run's commands (`ProcessSandbox.processGroups()`). */
  processGroups?: number[];
  /** Re-read package lists even if the per-process cache looks current: pass it for the after-snapshot. */
  refreshPackages?: boolean;
  /** A JSON file keeping package lists across processes (lib/runner/packages.ts); none by default. */
  packageCacheFile?: string;
  /** Python whose packages count (default `python3` on PATH). */
  python?: string;
  /**
   * Name prefixes, relative to the run's HOME, of the agent program's own state (its settings and
   * session transcripts, e.g. `.claude` covers ~/.claude/ and ~/.claude.json): not the environment.
   */
  agentStateInHome?: string[];
  /** Told about files not read (links, FIFOs, sockets, over-long files) under `.git/`, HOME and TMPDIR. */
  onSkip?: SkipNote;
}

type GitState = NonNullable<EnvironmentSnapshot["git"]>;

const lines = (text: string) => text.split("\n").filter((line) => line.length > 0);
const closeFd = (fd: number) => closeSync(fd);

/** Bytes read at most from one file under `.git/` (a real packed-refs of a big repository is ~10 MiB). */
const GIT_FILE_MAX_BYTES = 32 * 1024 * 1024;

/** Told what was not read (a link, a FIFO, a file over its bound), for the run's notes. */
export type SkipNote = (path: string, reason: string) => void;

/**
 * The workspace's git state, read from the files under `.git/` without running git: a repository
 * the agent created or configured could otherwise make the host run its code (`core.fsmonitor`,
 * clean filters, hooks). The agent controls these files: none is read through a link or opened
 * if it is not a regular file (`mkfifo .git/HEAD` would block a plain read forever); such a file
 * counts as absent and is reported to `onSkip`. Null when the workspace is not the top of its own
 * repository. `status` is left empty: computing it needs git; the workspace diff covers file changes.
 */
export async function captureGit(workspaceDir: string, onSkip?: SkipNote): Promise<GitState | null> {
  const stat = await fs.lstat(path.join(workspaceDir, ".git")).catch(() => null);
  if (!stat?.isDirectory()) return null;
  const read = async (rel: string): Promise<string | null> => {
    const result = await readUntrusted(workspaceDir, `.git/${rel}`, {
      maxBytes: GIT_FILE_MAX_BYTES,
      refuseLarger: true,
    });
    if (result.ok) return result.data.toString("utf8");
    if (result.kind !== "missing") onSkip?.(`.git/${rel}`, result.reason);
    return null;
  };
  const refs: Record<string, string> = {};
  for (const line of lines((await read("packed-refs")) ?? "")) {
    const match = /^([0-9a-f]{40,64}) (refs\/\S+)$/.exec(line);
    if (match) refs[match[2]!] = match[1]!;
  }
  const looseRefs: string[] = [];
  await walkUntrusted(
    workspaceDir,
    ".git/refs",
    (entry) => {
      if (entry.kind === "file") looseRefs.push(entry.rel.slice(".git/".length));
      else onSkip?.(entry.rel, describeKind(entry.rel, entry.kind));
    },
    { onSkip },
  );
  for (const rel of looseRefs) {
    const value = (await read(rel))?.trim();
    if (value && /^[0-9a-f]{40,64}$/.test(value)) refs[rel] = value;
  }
  const headText = (await read("HEAD"))?.trim() ?? "";
  const symbolic = /^ref: (refs\/\S+)$/.exec(headText)?.[1] ?? null;
  const head = symbolic ? (refs[symbolic] ?? null) : /^[0-9a-f]{40,64}$/.test(headText) ? headText : null;
  // The stash reflog, newest first, as `git stash list --format="%gd %H %gs"` prints it.
  const stash = lines((await read("logs/refs/stash")) ?? "")
    .reverse()
    .map((line, i) => `stash@{${i}} ${line.split(" ")[1] ?? ""} ${line.split("\t").slice(1).join("\t")}`);
  return {
    head,
    branch: symbolic?.replace(/^refs\/heads\//, "") ?? null,
    indexDigest: await indexDigestOf(workspaceDir, onSkip),
    status: [],
    stash,
    refs,
  };
}

/** sha256 of `.git/index`, streamed (it grows with the repository), or null when absent or not a file. */
async function indexDigestOf(workspaceDir: string, onSkip?: SkipNote): Promise<string | null> {
  const opened = openUntrustedFile(workspaceDir, ".git/index");
  if (!opened.ok) {
    if (opened.kind !== "missing") onSkip?.(".git/index", opened.reason);
    return null;
  }
  try {
    return (await hashOpened(opened, ".git/index")).sha256;
  } finally {
    closeFd(opened.fd);
  }
}

/**
 * Every file under the folders (absolute paths, sorted). Symlinks are hashed by their target, never
 * followed; FIFOs, sockets and devices are reported to `onSkip`, never opened; no folder is entered
 * through a link.
 */
export async function hashFolders(
  dirs: string[],
  onSkip?: SkipNote,
): Promise<NonNullable<EnvironmentSnapshot["outsideFiles"]>> {
  const found = new Map<string, { size: number; sha256: string }>();
  for (const dir of dirs.map((d) => path.resolve(d))) {
    if (!(await fs.lstat(dir).catch(() => null))?.isDirectory()) continue; // missing: nothing written there
    await walkUntrusted(
      dir,
      "",
      async (entry) => {
        const full = path.join(dir, entry.rel);
        if (entry.kind === "symlink") {
          const text = entry.readlink();
          if (text === null) return; // no longer a link: replaced since it was listed
          const target = Buffer.from(text);
          found.set(full, { size: target.length, sha256: createHash("sha256").update(target).digest("hex") });
          return;
        }
        const opened = entry.kind === "file" ? entry.open() : null;
        if (!opened?.ok) {
          if (opened?.kind !== "missing") onSkip?.(full, opened?.reason ?? describeKind(full, entry.kind));
          return;
        }
        try {
          found.set(full, await hashOpened(opened, full));
        } catch (error) {
          onSkip?.(full, error instanceof Error ? error.message : String(error));
        } finally {
          closeFd(opened.fd);
        }
      },
      { onSkip: (rel, reason) => onSkip?.(path.join(dir, rel), reason) },
    );
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, f]) => ({ path: p, ...f }));
}

const inside = (file: string, dirs: string[]) => dirs.some((dir) => file === dir || file.startsWith(`${dir}/`));
/** Names one of the folders as a whole path (so `/runs/r1` does not match `/runs/r10`). */
const names = (command: string, dirs: string[]) =>
  dirs.some((dir) => command.includes(`${dir}/`) || command.includes(`${dir} `) || command.endsWith(dir));

/**
 * Processes tied to the run: in one of its process groups, running with their working directory in
 * the workspace or run folder, or naming one of them in their arguments.
 */
export async function captureProcesses(
  dirs: string[],
  processGroups: number[] = [],
): Promise<NonNullable<EnvironmentSnapshot["processes"]>> {
  const out = await execText("ps", ["-eo", "pid=,pgid=,stat=,args="], { timeoutMs: 10_000 });
  if (out === null) throw new Error("ps failed");
  const groups = new Set(processGroups);
  const found: { pid: number; command: string }[] = [];
  for (const line of lines(out)) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const pid = Number(match[1]);
    const command = match[4]!;
    // Ourselves, and zombies: they run nothing and vanish once reaped.
    if (pid === process.pid || match[3]!.startsWith("Z") || command.startsWith("ps -eo pid=,pgid=")) continue;
    let cwd: string | null = null;
    try {
      cwd = await fs.readlink(`/proc/${pid}/cwd`);
    } catch {
      // gone, or not ours to look at
    }
    if (groups.has(Number(match[2])) || (cwd !== null && inside(cwd, dirs)) || names(command, dirs)) {
      found.push({ pid, command });
    }
  }
  return found;
}

export async function captureEnvironment(options: CaptureOptions): Promise<EnvironmentSnapshot> {
  const capturedAt = new Date().toISOString();
  const real = (p: string) => fs.realpath(p).catch(() => path.resolve(p));
  const runDir = await real(options.runDir);
  const workspaceDir = await real(options.workspaceDir);
  const home = path.join(runDir, "home");
  const [git, packages] = await Promise.all([
    captureGit(workspaceDir, options.onSkip).catch(() => null),
    capturePackages({
      home,
      cwd: workspaceDir,
      refresh: options.refreshPackages ?? false,
      python: options.python ?? "python3",
      cacheFile: options.packageCacheFile,
    }),
  ]);
  // Files last: the package listing above must not write into HOME unseen by this snapshot.
  const stateOf = (file: string) => {
    const rel = path.relative(home, file);
    return !rel.startsWith("..") && (options.agentStateInHome ?? []).some((prefix) => rel.startsWith(prefix));
  };
  const outsideFiles = await hashFolders(
    [home, path.join(runDir, "tmp"), ...(options.watchDirs ?? [])],
    options.onSkip,
  ).then(
    (files) => files.filter((f) => !stateOf(f.path)),
    () => null,
  );
  const dirs = [...new Set([runDir, workspaceDir, path.resolve(options.runDir), path.resolve(options.workspaceDir)])];
  const processes = await captureProcesses(dirs, options.processGroups).catch(() => null);
  return EnvironmentSnapshotSchema.parse({ capturedAt, git, packages, outsideFiles, processes });
}
