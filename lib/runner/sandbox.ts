/**
 * The command sandbox (sandbox-types.ts): `bash -lc COMMAND` in the workspace, with HOME and
 * TMPDIR inside the run folder. With bubblewrap the command sees only an allow-listed view of the
 * host (lib/util/sandbox-view.ts: system folders, a few /etc files, the interpreters; not /root, /home or
 * the project), read-only except the workspace and the run's HOME and TMPDIR; /tmp and /dev/shm
 * are private tmpfs bounded by the memory limit, the network is cut unless allowed, and the
 * command runs in its own PID namespace (so nothing outlives it). Resource limits (memory with the
 * tmpfs, tasks, disk) are applied by run-command.ts. Without bubblewrap the command only gets a
 * detached process group, the redirected HOME/TMPDIR and the same limits: it can read and write
 * wherever the user can and reach the network. `isolated` and `description` say which.
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/errors/app-error";
import { runCommand } from "./run-command";
import { hostView, viewArgs, type HostView, type Mount } from "@/lib/util/sandbox-view";
import { planGuard, type GuardPlan } from "./guard-mounts";
import type { CommandLimits, CommandResult, Sandbox, SandboxOptions } from "@/lib/agents/sandbox";

export type { CommandLimits, CommandResult, ResourceLimit, Sandbox, SandboxOptions } from "@/lib/agents/sandbox";

export interface ProcessSandbox extends Sandbox {
  readonly mode: "bubblewrap" | "process-group";
  /** One sentence on what the isolation does and does not cover (for logs and run manifests). */
  readonly description: string;
  readonly workspaceDir: string;
  readonly runDir: string;
  readonly homeDir: string;
  readonly tmpDir: string;
  /** Host process groups of commands started and not yet known to be gone (for environment snapshots). */
  processGroups(): number[];
  /** The guard's mounts, writable folders and gaps when `SandboxOptions.guard` was given. */
  readonly guardPlan: GuardPlan | null;
}

/**
 * Host variables a command inherits. Everything else (API keys of the model providers, tokens)
 * stays out: the agent is untrusted. Extra variables come in through `SandboxOptions.env`.
 */
export const INHERITED_ENV =
  /^(PATH|LANG|LANGUAGE|LC_[A-Z_]+|TZ|PYENV_ROOT|PYENV_VERSION|SSL_CERT_FILE|SSL_CERT_DIR|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|NODE_EXTRA_CA_CERTS|PIP_CERT|GIT_SSL_CAINFO)$/;

// --cap-drop ALL: started by root, bubblewrap keeps root's capabilities inside, and a command could
// unmount the tmpfs that hides a folder, remount the root writable, create device nodes or set the
// host's clock.
const BWRAP_FLAGS = ["--unshare-pid", "--die-with-parent", "--new-session", "--cap-drop", "ALL"];
/** /tmp and /dev/shm, each, when the command's limits do not say (they are memory: see CommandLimits). */
export const DEFAULT_TMPFS_BYTES = 1024 * 1024 * 1024;
const PAGE = 4096;

let bwrapProbe: Promise<boolean> | null = null;

/** Whether `bwrap` is installed and can build the view we use (checked once per process). */
export function bubblewrapAvailable(): Promise<boolean> {
  bwrapProbe ??= hostView().then(
    (view) =>
      new Promise((resolve) => {
        const args = viewArgs(view, { workspaceDir: "/tmp", homeDir: "/tmp", tmpDir: "/tmp", tmpfsBytes: 1 << 20 });
        execFile("bwrap", [...args, "--unshare-net", ...BWRAP_FLAGS, "true"], { timeout: 10_000 }, (error) =>
          resolve(!error),
        );
      }),
  );
  return bwrapProbe;
}

function sandboxEnv(home: string, tmp: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TMPDIR: tmp, TERM: "dumb", SHELL: "/bin/bash" };
  for (const name of Object.keys(env)) {
    if (!INHERITED_ENV.test(name) && !["HOME", "TMPDIR", "TERM", "SHELL"].includes(name)) delete env[name];
  }
  return Object.assign(env, extra);
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    // EPERM: the group exists but is not ours to signal; it is still alive.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/** Live (not zombie) processes in the given groups; null when `ps` fails. */
function processesInGroups(groups: Set<number>): Promise<number | null> {
  return new Promise((resolve) => {
    execFile("ps", ["-eo", "pgid=,stat="], { timeout: 5_000 }, (error, stdout) => {
      if (error) return resolve(null);
      let count = 0;
      for (const line of stdout.split("\n")) {
        const [pgid, stat] = line.trim().split(/\s+/);
        if (groups.has(Number(pgid)) && stat !== undefined && !stat.startsWith("Z")) count += 1;
      }
      resolve(count);
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The shell's own limits, set before the command. RLIMIT_NPROC only where it holds: root is exempt
 * from it (as root, 300 of 300 sleepers start whatever `ulimit -u` says), and outside a user
 * namespace it would count every process of the user on the host; unprivileged bubblewrap always
 * makes a user namespace, where it counts the sandbox's only (measured as nobody: `ulimit -u 64`,
 * then 300 forks, 64 processes run and the rest are refused). The pids cgroup (run-command.ts),
 * when it can be made, holds for root too.
 */
function ulimitLines(limits: CommandLimits, bubblewrap: boolean): string[] {
  const lines: string[] = [];
  if (limits.memoryBytes !== undefined) lines.push(`ulimit -v ${Math.max(1, Math.floor(limits.memoryBytes / 1024))}`);
  if (limits.diskBytes !== undefined) lines.push(`ulimit -f ${Math.max(1, Math.floor(limits.diskBytes / 1024))}`);
  if (limits.maxProcesses !== undefined && bubblewrap && process.getuid?.() !== 0)
    lines.push(`ulimit -u ${limits.maxProcesses}`);
  return lines.map((line) => `${line} || exit 125`);
}

interface SandboxFolders {
  workspaceDir: string;
  runDir: string;
  homeDir: string;
  tmpDir: string;
}

/** The workspace and the run's folders, symlinks resolved; the run's home and tmp are made. */
async function sandboxFolders(options: SandboxOptions): Promise<SandboxFolders> {
  let workspaceDir: string;
  try {
    workspaceDir = await fs.realpath(options.workspaceDir);
  } catch (error) {
    throw new AppError("NOT_FOUND", `workspace ${options.workspaceDir} does not exist`, { cause: error });
  }
  await fs.mkdir(options.runDir, { recursive: true });
  const runDir = await fs.realpath(options.runDir);
  const homeDir = path.join(runDir, "home");
  const tmpDir = path.join(runDir, "tmp");
  await fs.mkdir(homeDir, { recursive: true });
  await fs.mkdir(tmpDir, { recursive: true });
  return { workspaceDir, runDir, homeDir, tmpDir };
}

/** What a sandbox holds a command to, in one line for the run notes. */
function describeSandbox(
  useBwrap: boolean,
  options: SandboxOptions,
  folders: SandboxFolders,
  guard: GuardPlan | null,
): string {
  const workspace = guard
    ? `${folders.workspaceDir} guarded (read-only except its may-change files, ` +
      `${guard.writableFolders.length} folder(s) writable for expected creations or deletions)`
    : `writable ${folders.workspaceDir}`;
  return useBwrap
    ? `bubblewrap: only system folders, selected /etc files and the interpreters shown read-only, ${workspace} ` +
        `and writable ${folders.runDir}/{home,tmp}, bounded private /tmp and /dev/shm, own PID namespace, ` +
        (options.allowNetwork ? "network shared with the host" : "no network")
    : `no bubblewrap (${options.useBubblewrap === false ? "disabled" : "not available"}): a process group with ` +
        "HOME and TMPDIR in the run folder only; commands can read and write anywhere the user can and reach the network";
}

/**
 * The command line of one command. Writable under bubblewrap: the workspace, and the run's home
 * and tmp; not the run folder itself, where the runner writes the bundle after the agent is gone
 * (no symlink planted there can redirect it).
 */
function commandArgv(
  view: HostView | null,
  options: SandboxOptions,
  folders: SandboxFolders,
  script: string,
  tmpfsBytes: number,
  guard: Mount[] | undefined,
): string[] {
  if (!view) return ["bash", "-lc", script];
  const { workspaceDir, homeDir, tmpDir } = folders;
  return [
    "bwrap",
    ...viewArgs(view, {
      workspaceDir,
      homeDir,
      tmpDir,
      tmpfsBytes,
      hide: options.hide,
      readOnlyBinds: options.readOnlyBinds,
      binds: options.binds,
      guard,
    }),
    ...(options.allowNetwork ? [] : ["--unshare-net"]),
    ...BWRAP_FLAGS,
    ...["--info-fd", "3", "--block-fd", "4"],
    ...["--chdir", workspaceDir, "bash", "-lc", script],
  ];
}

/** Kills the process groups still alive; returns how many processes were left in them. */
async function killGroups(groups: Set<number>): Promise<number> {
  const live = new Set([...groups].filter(groupAlive));
  const left = live.size === 0 ? 0 : ((await processesInGroups(live)) ?? live.size);
  for (const pgid of live) signalGroup(pgid, "SIGKILL");
  // Zombies stay group members until their new parent reaps them: wait for the living only.
  for (let i = 0; i < 20 && left > 0 && ((await processesInGroups(live)) ?? 0) > 0; i++) await sleep(25);
  groups.clear();
  return left;
}

export async function createSandbox(options: SandboxOptions): Promise<ProcessSandbox> {
  const folders = await sandboxFolders(options);
  const { workspaceDir, homeDir, tmpDir } = folders;
  const useBwrap = options.useBubblewrap !== false && (await bubblewrapAvailable());
  const view = useBwrap ? await hostView() : null;
  if (options.guard && !view)
    throw new AppError("UNAVAILABLE", "the sandbox guard needs bubblewrap, which is not available or disabled here");
  // Planned once, before the agent acts, from the workspace as materialized (guard-mounts.ts).
  const guardPlan = options.guard ? await planGuard(workspaceDir, options.guard) : null;
  const env = sandboxEnv(homeDir, tmpDir, options.env);
  if (view) env.PATH = view.path;
  const groups = new Set<number>();

  const run = (command: string, limits: CommandLimits, extraEnv?: Record<string, string>): Promise<CommandResult> => {
    const script = [...ulimitLines(limits, useBwrap), command].join("\n");
    const tmpfsBytes = Math.ceil((limits.tmpfsBytes ?? DEFAULT_TMPFS_BYTES) / PAGE) * PAGE;
    return runCommand({
      argv: commandArgv(view, options, folders, script, tmpfsBytes, guardPlan?.mounts),
      bubblewrap: view !== null,
      cwd: workspaceDir,
      env: extraEnv ? { ...env, ...extraEnv } : env,
      limits,
      tmpfsBytes,
      diskDirs: [workspaceDir, homeDir, tmpDir],
      onGroup: (pgid, alive) => (alive ? groups.add(pgid) : groups.delete(pgid)),
      groupAlive,
    });
  };

  return {
    isolated: useBwrap,
    mode: useBwrap ? "bubblewrap" : "process-group",
    description: describeSandbox(useBwrap, options, folders, guardPlan),
    guard: options.guard ?? null,
    guardPlan,
    ...folders,
    run,
    killAll: () => killGroups(groups),
    processGroups: () => [...groups].filter(groupAlive),
  };
}
