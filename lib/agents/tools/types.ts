/**
 * What the built-in agents' tools share: a tool set is the specs the model sees plus an executor
 * that works on the workspace (files directly, commands through the sandbox). Every result says
 * which files it read, wrote or deleted, so the runner can record them as trajectory steps.
 */
import type { ToolSpec } from "@/lib/llm/chat";
import type { CommandLimits, ResourceLimit, Sandbox } from "@/lib/agents/sandbox";

export interface FileAction {
  kind: "read" | "write" | "delete";
  /** Relative to the workspace, POSIX separators ("." for the workspace itself). */
  path: string;
}

/** A command the tool ran in the sandbox: becomes a `shell` trajectory step. */
export interface ShellRecord {
  command: string;
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  outputTruncated: boolean;
  /** Stopped at a resource limit of the run: the run ends with it as its exit reason. */
  limitHit: ResourceLimit | null;
  durationMs: number;
}

export interface ToolResult {
  output: string;
  isError: boolean;
  fileActions: FileAction[];
  shell?: ShellRecord;
}

export interface ToolSet {
  readonly specs: ToolSpec[];
  /** Never throws for the model's mistakes (bad arguments, missing files, refused paths): those are error results. */
  execute(name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

export interface ToolContext {
  /** The workspace the file tools may touch; nothing resolving outside it is read or written. */
  workspaceDir: string;
  /** Runs shell and Python commands (contained by the sandbox, not by path checks). */
  sandbox: Sandbox;
  /** Limits of each command (a tool's own `timeout` argument may only lower timeoutMs). */
  limits: CommandLimits;
  /** Python for `run_python` (default `python3`). */
  python?: string;
  /** Longest text a tool returns to the model (default 16,000 characters, as OpenHands). */
  maxOutputChars?: number;
}

export const DEFAULT_MAX_OUTPUT_CHARS = 16_000;
