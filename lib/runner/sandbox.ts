/**
 * The command sandbox (sandbox-types.ts): `bash -lc COMMAND` in the workspace, with HOME and
 * TMPDIR inside the run folder. With bubblewrap the root file system is read-only, only the
 * workspace and the run folder are writable, /tmp is a private tmpfs, the network is cut unless
 * allowed, and the command runs in its own PID namespace (so nothing outlives it). Without
 * bubblewrap the command only gets a detached process group and the redirected HOME/TMPDIR: it
 * can write wherever the user can and reach the network. `isolated` and `description` say which.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { AppError } from "@/lib/errors/app-error";
import { treeRssBytes } from "./process-tree";
import type { CommandLimits, CommandResult, Sandbox, SandboxOptions } from "./sandbox-types";

export type { CommandLimits, CommandResult, Sandbox, SandboxOptions } from "./sandbox-types";

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
}

/**
 * Host variables a command inherits. Everything else (API keys of the model providers, tokens)
 * stays out: the agent is untrusted. Extra variables come in through `SandboxOptions.env`.
 */
export const INHERITED_ENV =
  /^(PATH|LANG|LANGUAGE|LC_[A-Z_]+|TZ|PYENV_ROOT|PYENV_VERSION|SSL_CERT_FILE|SSL_CERT_DIR|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|NODE_EXTRA_CA_CERTS|PIP_CERT|GIT_SSL_CAINFO)$/;

/** Between SIGTERM and SIGKILL when a command is stopped. */
const KILL_GRACE_MS = 500;
/** After the shell exits, how long background processes holding its pipes may keep them. */
const DRAIN_MS = 100;
/** How often resident memory is polled when a command has `maxRssBytes`. */
const RSS_POLL_MS = 250;

const BWRAP_BASE = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
// --cap-drop ALL: started by root, bubblewrap keeps root's capabilities inside, and a command could
// unmount the tmpfs that hides the project, remount / writable, create device nodes or set the
// host's clock (issue 5, containment).
const BWRAP_FLAGS = ["--unshare-pid", "--die-with-parent", "--new-session", "--cap-drop", "ALL"];

let bwrapProbe: Promise<boolean> | null = null;

/** Whether `bwrap` is installed and allowed to create the namespaces we use (checked once per process). */
export function bubblewrapAvailable(): Promise<boolean> {
  bwrapProbe ??= new Promise((resolve) => {
    execFile("bwrap", [...BWRAP_BASE, "--unshare-net", ...BWRAP_FLAGS, "true"], { timeout: 10_000 }, (error) =>
      resolve(!error),
    );
  });
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

export async function createSandbox(options: SandboxOptions): Promise<ProcessSandbox> {
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

  const useBwrap = options.useBubblewrap !== false && (await bubblewrapAvailable());
  const env = sandboxEnv(homeDir, tmpDir, options.env);
  const groups = new Set<number>();

  const description = useBwrap
    ? `bubblewrap: read-only root, writable ${workspaceDir} and ${runDir}, private /tmp, own PID namespace, ` +
      (options.allowNetwork ? "network shared with the host" : "no network")
    : `no bubblewrap (${options.useBubblewrap === false ? "disabled" : "not available"}): a process group with ` +
      "HOME and TMPDIR in the run folder only; commands can write anywhere the user can and reach the network";

  const argvOf = (script: string): string[] => {
    if (!useBwrap) return ["bash", "-lc", script];
    // Order matters: the tmpfs on /tmp comes before the binds, so a workspace under /tmp stays visible.
    // Writable: the workspace, and the run's home and tmp; not the run folder itself, where the
    // runner writes the bundle after the agent is gone (no symlink planted there can redirect it).
    const hidden = (options.hide ?? []).flatMap((dir) => ["--tmpfs", dir]);
    const shown = (options.readOnlyBinds ?? []).flatMap((dir) => ["--ro-bind", dir, dir]);
    const binds = [
      ...[...new Set([workspaceDir, homeDir, tmpDir])].flatMap((dir) => ["--bind", dir, dir]),
      ...(options.binds ?? []).flatMap((b) => ["--bind", b.source, b.target]),
    ];
    const net = options.allowNetwork ? [] : ["--unshare-net"];
    return [
      "bwrap",
      ...BWRAP_BASE,
      ...hidden,
      ...shown,
      ...binds,
      ...net,
      ...BWRAP_FLAGS,
      "--chdir",
      workspaceDir,
      "bash",
      "-lc",
      script,
    ];
  };

  const run = (command: string, limits: CommandLimits, extraEnv?: Record<string, string>): Promise<CommandResult> => {
    const script =
      limits.memoryBytes !== undefined
        ? `ulimit -v ${Math.max(1, Math.floor(limits.memoryBytes / 1024))} || exit 125\n${command}`
        : command;
    const [file, ...args] = argvOf(script);
    const started = performance.now();
    return new Promise<CommandResult>((resolve, reject) => {
      const child = spawn(file!, args, {
        cwd: workspaceDir,
        env: extraEnv ? { ...env, ...extraEnv } : env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const pgid = child.pid;
      if (pgid !== undefined) groups.add(pgid);
      const chunks: Buffer[] = [];
      let bytes = 0;
      let timedOut = false;
      let outputTruncated = false;
      let memoryExceeded = false;
      let peakRssBytes: number | null = null;
      let exitCode: number | null = null;
      let stopping = false;
      let settled = false;
      const timers: NodeJS.Timeout[] = [];

      const stop = () => {
        if (stopping || pgid === undefined) return;
        stopping = true;
        signalGroup(pgid, "SIGTERM");
        timers.push(setTimeout(() => signalGroup(pgid, "SIGKILL"), KILL_GRACE_MS));
      };
      const finish = () => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        child.stdout.destroy();
        child.stderr.destroy();
        if (pgid !== undefined && !groupAlive(pgid)) groups.delete(pgid);
        resolve({
          exitCode,
          output: Buffer.concat(chunks).toString("utf8"),
          timedOut,
          outputTruncated,
          memoryExceeded,
          peakRssBytes,
          durationMs: Math.round(performance.now() - started),
        });
      };
      const onData = (chunk: Buffer) => {
        if (outputTruncated) return;
        const room = limits.maxOutputBytes - bytes;
        if (chunk.length > room) {
          if (room > 0) chunks.push(chunk.subarray(0, room));
          bytes = limits.maxOutputBytes;
          outputTruncated = true;
          child.stdout.pause();
          child.stderr.pause();
          stop();
          return;
        }
        chunks.push(chunk);
        bytes += chunk.length;
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      timers.push(
        setTimeout(() => {
          timedOut = true;
          stop();
        }, limits.timeoutMs),
      );
      if (limits.maxRssBytes !== undefined && pgid !== undefined) {
        const maxRss = limits.maxRssBytes;
        const poll = setInterval(() => {
          void treeRssBytes(pgid).then((rss) => {
            peakRssBytes = Math.max(peakRssBytes ?? 0, rss);
            if (rss > maxRss && !stopping) {
              memoryExceeded = true;
              stop();
            }
          });
        }, RSS_POLL_MS);
        timers.push(poll);
      }
      child.on("error", (error) => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        if (pgid !== undefined) groups.delete(pgid);
        reject(new AppError("UNAVAILABLE", `cannot start ${file}: ${error.message}`, { cause: error }));
      });
      child.on("exit", (code) => {
        exitCode = code;
        timers.push(setTimeout(finish, DRAIN_MS));
      });
      child.on("close", finish);
    });
  };

  const killAll = async (): Promise<number> => {
    const live = new Set([...groups].filter(groupAlive));
    const left = live.size === 0 ? 0 : ((await processesInGroups(live)) ?? live.size);
    for (const pgid of live) signalGroup(pgid, "SIGKILL");
    // Zombies stay group members until their new parent reaps them: wait for the living only.
    for (let i = 0; i < 20 && left > 0 && ((await processesInGroups(live)) ?? 0) > 0; i++) await sleep(25);
    groups.clear();
    return left;
  };

  return {
    isolated: useBwrap,
    mode: useBwrap ? "bubblewrap" : "process-group",
    description,
    workspaceDir,
    runDir,
    homeDir,
    tmpDir,
    run,
    killAll,
    processGroups: () => [...groups].filter(groupAlive),
  };
}
