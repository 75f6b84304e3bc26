/**
 * Running untrusted commands for an agent: inside its workspace, with limits, killed as a
 * process group on timeout, never able to write outside the run folder (bubblewrap when present).
 * The agents' tools and loop state what they need here; lib/runner/sandbox.ts implements it, so
 * the runner depends on the agents and not the other way round.
 */
import type { GuardRules } from "@/lib/workspace/guard";

export interface CommandLimits {
  timeoutMs: number;
  /** Output beyond this many bytes (stdout+stderr) is cut and the process killed. */
  maxOutputBytes: number;
  /** Address-space limit for the command (ulimit -v), bytes. */
  memoryBytes?: number;
  /**
   * Resident-memory limit for the command and all its descendants, bytes, polled from /proc; the
   * whole group is killed past it. For agent processes (Node, Rust, Python runtimes), where
   * `ulimit -v` would break the runtime's address-space reservations.
   */
  maxRssBytes?: number;
  /**
   * Size of the sandbox's /tmp and of its /dev/shm, bytes (default 1 GiB). Both are memory: their
   * fill counts against `maxRssBytes`, and a full one stops the command with memory_limit.
   */
  tmpfsBytes?: number;
  /** Tasks (processes and threads) the command may have at once; past it, process_limit. */
  maxProcesses?: number;
  /**
   * Disk quota of the workspace, HOME and TMPDIR together, bytes: no single file may grow past it
   * (RLIMIT_FSIZE), and the command is stopped with disk_limit once their total reaches it.
   */
  diskBytes?: number;
}

/** The resource limit that stopped a command (also the run's exit reason). */
export type ResourceLimit = "memory_limit" | "process_limit" | "disk_limit";

export interface CommandResult {
  exitCode: number | null;
  /** stdout and stderr interleaved as produced, capped at maxOutputBytes. */
  output: string;
  timedOut: boolean;
  outputTruncated: boolean;
  /** Stopped at (or refused past) a resource limit: memory with /tmp and /dev/shm, tasks, disk. */
  limitHit: ResourceLimit | null;
  /** Highest resident memory seen while polling (null when not polled). */
  peakRssBytes: number | null;
  durationMs: number;
}

export interface SandboxOptions {
  /** The workspace: the only place commands may write (besides the run's home and tmp). */
  workspaceDir: string;
  /** The run's folder: HOME and TMPDIR point inside it, so session files are captured. */
  runDir: string;
  /** Keep the network (needed to reach a model server on the host); default: no network. */
  allowNetwork?: boolean;
  /** Use bubblewrap when available (default true); without it commands run with HOME/TMPDIR redirected only. */
  useBubblewrap?: boolean;
  /**
   * Folders hidden from commands, e.g. the project with its database and the benchmark's answers.
   * Under bubblewrap they are outside the view anyway; one that lies inside something shown gets
   * an empty read-only tmpfs over it. Without bubblewrap this is not enforced.
   */
  hide?: string[];
  /** Folders shown read-only at the same path even inside a hidden folder (e.g. the project's node_modules, for agent CLIs). */
  readOnlyBinds?: string[];
  /** Extra writable folders, each mounted at `target` (bubblewrap only; e.g. the model gateway's socket folder). */
  binds?: { source: string; target: string }[];
  env?: Record<string, string>;
  /**
   * The sandbox guard (the `guard` arm): commands may write, create and delete in the workspace
   * only as these rules allow (bubblewrap mounts; refused without bubblewrap).
   */
  guard?: GuardRules;
}

export interface Sandbox {
  readonly isolated: boolean;
  /**
   * The guard's rules when the sandbox enforces them: tools that write from the runner's own
   * process (not through a command) must ask `guardRefusal` first.
   */
  readonly guard?: GuardRules | null;
  /** `env` adds variables for this command only. */
  run(command: string, limits: CommandLimits, env?: Record<string, string>): Promise<CommandResult>;
  /** Kills every process the sandbox started that is still alive; returns how many were left. */
  killAll(): Promise<number>;
}
