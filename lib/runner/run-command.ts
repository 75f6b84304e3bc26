/**
 * One sandboxed command from start to end (sandbox.ts builds its argv): its own process group,
 * output capped, killed at its time limit, and its resource limits watched. Under bubblewrap the
 * sandbox is started blocked (--block-fd) until its /tmp and /dev/shm are held open from here, so
 * a command that fills them and exits within one poll is still seen to have hit its memory limit.
 */
import { execFile, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { performance } from "node:perf_hooks";
import { AppError } from "@/lib/errors/app-error";
import { treeUsage } from "./process-tree";
import { createPidsCgroup, diskUsageBytes, watchTmpfs, type TmpfsWatch } from "./sandbox-limits";
import type { CommandLimits, CommandResult, ResourceLimit } from "@/lib/agents/sandbox";

/** Between SIGTERM and SIGKILL when a command is stopped. */
const KILL_GRACE_MS = 500;
/** After the shell exits, how long background processes holding its pipes may keep them. */
const DRAIN_MS = 100;
/** How often memory, tasks and the tmpfs fill are polled. */
const POLL_MS = 250;
/**
 * The disk total is walked at most every 500 ms, and never more than a tenth of the time: `du` takes
 * 2 ms for a sample workspace (28 files) and 40 ms for 10,000 files on this 2-core machine.
 */
const DISK_POLL_MS = 500;
const DISK_DUTY = 10;

export interface CommandSpec {
  /** The program and its arguments (bwrap ... bash -lc SCRIPT, or bash -lc SCRIPT). */
  argv: string[];
  /** argv is bubblewrap's, which takes --info-fd 3 --block-fd 4. */
  bubblewrap: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  limits: CommandLimits;
  /** The tmpfs size the argv asked for (bubblewrap only). */
  tmpfsBytes: number;
  /** Folders whose total counts against `limits.diskBytes`. */
  diskDirs: string[];
  /** Told the host process group when it starts, and again when it is known to be gone. */
  onGroup(pgid: number, alive: boolean): void;
  groupAlive(pgid: number): boolean;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/** The sandbox's PID (in the host's namespace) from bubblewrap's --info-fd JSON. */
function childPidOf(info: Readable): Promise<number | null> {
  return new Promise((resolve) => {
    let text = "";
    info.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      try {
        const pid = (JSON.parse(text) as { "child-pid"?: unknown })["child-pid"];
        resolve(typeof pid === "number" ? pid : null);
      } catch {
        // Not complete yet.
      }
    });
    info.on("end", () => resolve(null));
    info.on("error", () => resolve(null));
  });
}

/** `sh -c` script: go on only while the parent is the process named by $0, then exec the rest. */
const PARENT_STILL_ALIVE = '[ "$PPID" = "$0" ] || exit 125; exec "$@"';

let pdeathsigProbe: Promise<boolean> | null = null;

/** Whether util-linux's setpriv can set a parent-death signal here (checked once per process). */
function parentDeathSignalWorks(): Promise<boolean> {
  pdeathsigProbe ??= new Promise((resolve) => {
    execFile("setpriv", ["--pdeathsig", "KILL", "--", "true"], { timeout: 10_000 }, (error) => resolve(!error));
  });
  return pdeathsigProbe;
}

export async function runCommand(spec: CommandSpec): Promise<CommandResult> {
  const { limits } = spec;
  const cgroup = limits.maxProcesses !== undefined ? await createPidsCgroup(limits.maxProcesses) : null;
  // The kernel's own count, for root as for anyone: with pids.max 64, a loop forking 300 sleepers
  // gets 64 tasks and then EAGAIN (sandbox-limits.test.ts). The wrapper joins the cgroup itself
  // before it execs the command, so nothing forks outside it.
  const inCgroup = cgroup
    ? ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', cgroup.procsFile, ...spec.argv]
    : spec.argv;
  // The sandbox dies with this process, however it ends: killed with SIGKILL while the sandbox was
  // still blocked on --block-fd, bwrap read EOF, ran the command anyway and outlived us (2 processes
  // left per such run without this, none with it: sandbox-orphan.test.ts). bwrap's
  // --die-with-parent then takes the namespace down with it.
  // The signal is armed only once setpriv runs: if this process dies between the fork and then, the
  // child is already someone else's and would never get it (seen under load: bwrap and the command
  // left behind). So the armed child checks its parent is still this process before going on.
  const argv = (await parentDeathSignalWorks())
    ? ["setpriv", "--pdeathsig", "KILL", "--", "/bin/sh", "-c", PARENT_STILL_ALIVE, String(process.pid), ...inCgroup]
    : inCgroup;
  const [file, ...args] = argv;
  const started = performance.now();
  const child = spawn(file!, args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: spec.bubblewrap ? ["ignore", "pipe", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"],
  });
  const pgid = child.pid;
  if (pgid !== undefined) spec.onGroup(pgid, true);
  const chunks: Buffer[] = [];
  let bytes = 0;
  let timedOut = false;
  let outputTruncated = false;
  let limitHit: ResourceLimit | null = null;
  let peakRssBytes: number | null = null;
  let stopping = false;
  const timers: NodeJS.Timeout[] = [];
  let tmpfs: TmpfsWatch | null = null;

  const stop = () => {
    if (stopping || pgid === undefined) return;
    stopping = true;
    signalGroup(pgid, "SIGTERM");
    timers.push(setTimeout(() => signalGroup(pgid, "SIGKILL"), KILL_GRACE_MS));
  };
  const hit = (limit: ResourceLimit) => {
    limitHit ??= limit;
    stop();
  };

  if (spec.bubblewrap) {
    const [, , , info, unblock] = child.stdio as [null, Readable, Readable, Readable, Writable];
    void childPidOf(info).then(async (pid) => {
      if (pid !== null) tmpfs = await watchTmpfs(pid, spec.tmpfsBytes);
      unblock.end("go");
    });
    unblock.on("error", () => undefined); // the sandbox failed before reading it
  }

  const check = async () => {
    if (pgid === undefined) return;
    const usage = await treeUsage(pgid);
    const inTmpfs = tmpfs ? await tmpfs.usedBytes() : 0;
    peakRssBytes = Math.max(peakRssBytes ?? 0, usage.rssBytes + inTmpfs);
    if (limits.maxRssBytes !== undefined && usage.rssBytes + inTmpfs > limits.maxRssBytes) hit("memory_limit");
    if (tmpfs && (await tmpfs.full())) hit("memory_limit");
    if (limits.maxProcesses !== undefined && usage.tasks >= limits.maxProcesses) hit("process_limit");
    if (cgroup && (await cgroup.refusedForks()) > 0) hit("process_limit");
    if (limits.diskBytes !== undefined && Date.now() >= diskDueAt) {
      const walkStarted = Date.now();
      const used = await diskUsageBytes(spec.diskDirs);
      diskDueAt = Date.now() + Math.max(DISK_POLL_MS, (Date.now() - walkStarted) * DISK_DUTY);
      if (used >= limits.diskBytes) hit("disk_limit");
    }
  };
  let diskDueAt = 0;
  let polling = false;
  timers.push(
    setInterval(() => {
      if (polling || stopping) return;
      polling = true;
      void check().finally(() => (polling = false));
    }, POLL_MS),
  );

  /** After the exit: what a poll may have missed (a quick fill of /tmp, a file written at once). */
  const finalCheck = async () => {
    if (tmpfs) peakRssBytes = Math.max(peakRssBytes ?? 0, await tmpfs.usedBytes());
    if (tmpfs && (await tmpfs.full())) limitHit ??= "memory_limit";
    if (cgroup && (await cgroup.refusedForks()) > 0) limitHit ??= "process_limit";
    if (limits.diskBytes !== undefined && (await diskUsageBytes(spec.diskDirs)) >= limits.diskBytes)
      limitHit ??= "disk_limit";
    await (tmpfs as TmpfsWatch | null)?.close();
    await cgroup?.destroy();
  };

  return new Promise<CommandResult>((resolve, reject) => {
    let exitCode: number | null = null;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      child.stdout!.destroy();
      child.stderr!.destroy();
      if (pgid !== undefined && !spec.groupAlive(pgid)) spec.onGroup(pgid, false);
      void finalCheck().then(() =>
        resolve({
          exitCode,
          output: Buffer.concat(chunks).toString("utf8"),
          timedOut,
          outputTruncated,
          limitHit,
          peakRssBytes,
          durationMs: Math.round(performance.now() - started),
        }),
      );
    };
    const onData = (chunk: Buffer) => {
      if (outputTruncated) return;
      const room = limits.maxOutputBytes - bytes;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        bytes = limits.maxOutputBytes;
        outputTruncated = true;
        child.stdout!.pause();
        child.stderr!.pause();
        stop();
        return;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, limits.timeoutMs),
    );
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      if (pgid !== undefined) spec.onGroup(pgid, false);
      void cgroup?.destroy();
      reject(new AppError("UNAVAILABLE", `cannot start ${file}: ${error.message}`, { cause: error }));
    });
    child.on("exit", (code) => {
      exitCode = code;
      timers.push(setTimeout(finish, DRAIN_MS));
    });
    child.on("close", finish);
  });
}
