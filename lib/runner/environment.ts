/**
 * Environment snapshots (EnvironmentSnapshotSchema), taken before and after a run: the workspace's
 * git state, installed Python and system packages, files written outside the workspace (the run's
 * HOME and TMPDIR, plus any folders the caller watches) and processes still tied to the run.
 * Anything that cannot be read is null ("not captured"), never an empty "unchanged".
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { EnvironmentSnapshotSchema, type EnvironmentSnapshot } from "@/lib/bundle/schema";
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
}

type GitState = NonNullable<EnvironmentSnapshot["git"]>;

const lines = (text: string) => text.split("\n").filter((line) => line.length > 0);

/** The workspace's git state, or null when the workspace is not itself the top of a repository. */
/**
 * The workspace's git state, read from the files under `.git/` without running git: a repository
 * the agent created or configured could otherwise make the host run its code (`core.fsmonitor`,
 * clean filters, hooks). Null when the workspace is not the top of its own repository.
 * `status` is left empty: computing it needs git; the workspace diff covers file changes.
 */
export async function captureGit(workspaceDir: string): Promise<GitState | null> {
  const gitDir = path.join(workspaceDir, ".git");
  const stat = await fs.lstat(gitDir).catch(() => null);
  if (!stat?.isDirectory()) return null;
  const read = (rel: string) => fs.readFile(path.join(gitDir, rel), "utf8").catch(() => null);
  const refs: Record<string, string> = {};
  for (const line of lines((await read("packed-refs")) ?? "")) {
    const match = /^([0-9a-f]{40,64}) (refs\/\S+)$/.exec(line);
    if (match) refs[match[2]!] = match[1]!;
  }
  const walkRefs = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(path.join(gitDir, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walkRefs(child);
      else if (entry.isFile()) {
        const value = (await read(child))?.trim();
        if (value && /^[0-9a-f]{40,64}$/.test(value)) refs[child] = value;
      }
    }
  };
  await walkRefs("refs");
  const headText = (await read("HEAD"))?.trim() ?? "";
  const symbolic = /^ref: (refs\/\S+)$/.exec(headText)?.[1] ?? null;
  const head = symbolic ? (refs[symbolic] ?? null) : /^[0-9a-f]{40,64}$/.test(headText) ? headText : null;
  const index = await fs.readFile(path.join(gitDir, "index")).catch(() => null);
  // The stash reflog, newest first, as `git stash list --format="%gd %H %gs"` prints it.
  const stash = lines((await read("logs/refs/stash")) ?? "")
    .reverse()
    .map((line, i) => `stash@{${i}} ${line.split(" ")[1] ?? ""} ${line.split("\t").slice(1).join("\t")}`);
  return {
    head,
    branch: symbolic?.replace(/^refs\/heads\//, "") ?? null,
    indexDigest: index === null ? null : createHash("sha256").update(index).digest("hex"),
    status: [],
    stash,
    refs,
  };
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Every file under the folders (absolute paths, sorted); symlinks hashed by their target, never followed. */
export async function hashFolders(dirs: string[]): Promise<NonNullable<EnvironmentSnapshot["outsideFiles"]>> {
  const found = new Map<string, { size: number; sha256: string }>();
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return; // missing or unreadable: nothing written there that we can see
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      try {
        if (entry.isDirectory()) await walk(full);
        else if (entry.isSymbolicLink()) {
          const target = Buffer.from(await fs.readlink(full));
          found.set(full, { size: target.length, sha256: createHash("sha256").update(target).digest("hex") });
        } else if (entry.isFile()) {
          const stat = await fs.stat(full);
          found.set(full, { size: stat.size, sha256: await hashFile(full) });
        }
      } catch {
        // Deleted while we looked (a process still running): it is not there to record.
      }
    }
  };
  for (const dir of dirs) await walk(path.resolve(dir));
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
    captureGit(workspaceDir).catch(() => null),
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
  const outsideFiles = await hashFolders([home, path.join(runDir, "tmp"), ...(options.watchDirs ?? [])]).then(
    (files) => files.filter((f) => !stateOf(f.path)),
    () => null,
  );
  const dirs = [...new Set([runDir, workspaceDir, path.resolve(options.runDir), path.resolve(options.workspaceDir)])];
  const processes = await captureProcesses(dirs, options.processGroups).catch(() => null);
  return EnvironmentSnapshotSchema.parse({ capturedAt, git, packages, outsideFiles, processes });
}
