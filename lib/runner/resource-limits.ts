/**
 * A run's resource limits as its commands get them, the same for built-in agents and agent CLIs:
 * memory (resident memory of everything started, plus what sits in /tmp and /dev/shm), tasks and
 * disk. The agent file's `limits` override each default (docs/external-agents.md).
 */
import type { RunLimits } from "./record-run";
import type { CommandLimits, ResourceLimit } from "@/lib/agents/sandbox";

export const DEFAULT_RESOURCE_LIMITS = {
  memoryBytes: 4 * 1024 * 1024 * 1024,
  /**
   * Tasks, threads included, as the kernel counts them. Peaks measured (pids.peak) on the scripted
   * sample runs, forwarder and pytest included: Claude Code 23, Gemini CLI 35, Codex 55; the
   * built-in agents' commands 5 to 12. A fork loop of 300 sleepers stops here.
   */
  maxProcesses: 256,
  diskBytes: 4 * 1024 * 1024 * 1024,
};

/** The resource part of every command's limits in a run. */
export function resourceLimitsOf(
  limits: Pick<RunLimits, "memoryBytes" | "maxProcesses" | "diskBytes">,
): Pick<CommandLimits, "maxRssBytes" | "tmpfsBytes" | "maxProcesses" | "diskBytes"> {
  const memory = limits.memoryBytes ?? DEFAULT_RESOURCE_LIMITS.memoryBytes;
  return {
    maxRssBytes: memory,
    // /tmp and /dev/shm get half the memory limit each, so together the kernel holds them to it;
    // with resident memory they are also polled against it (every 250 ms).
    tmpfsBytes: Math.floor(memory / 2),
    maxProcesses: limits.maxProcesses ?? DEFAULT_RESOURCE_LIMITS.maxProcesses,
    diskBytes: limits.diskBytes ?? DEFAULT_RESOURCE_LIMITS.diskBytes,
  };
}

const mib = (bytes: number | undefined) => `${Math.round((bytes ?? 0) / 1048576)} MiB`;

/** The run's error line for a command stopped at a resource limit. */
export function resourceLimitMessage(
  limit: ResourceLimit,
  limits: Pick<RunLimits, "memoryBytes" | "maxProcesses" | "diskBytes">,
  peakBytes: number | null,
): string {
  const applied = resourceLimitsOf(limits);
  switch (limit) {
    case "memory_limit":
      return `stopped at the memory limit of ${mib(applied.maxRssBytes)}${peakBytes === null ? "" : ` (peak ${mib(peakBytes)})`}, /tmp and /dev/shm included`;
    case "process_limit":
      return `stopped at the limit of ${applied.maxProcesses} processes and threads`;
    case "disk_limit":
      return `stopped at the disk quota of ${mib(applied.diskBytes)} (workspace, HOME and TMPDIR together)`;
  }
}
