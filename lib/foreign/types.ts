/**
 * Runs made elsewhere (DESIGN.md 2c): what a reader of another agent's native log produces. One
 * reader per format lives in `lib/foreign/formats/`; `lib/foreign/to-bundle.ts` turns a ForeignRun
 * into our run bundle, so a foreign run is validated, stored and judged like one of ours.
 */
import type { ExitReason, TrajectoryStep } from "@/lib/bundle/schema";

/** One file as given to the import: its name (for messages and detection) and its bytes, verbatim. */
export interface ForeignFile {
  name: string;
  data: Buffer;
}

/** What a reader may look at besides its file: the other files of the same import. */
export interface ForeignReadContext {
  /** E.g. Gemini CLI's session file beside its stream-json output (tool output the stream leaves empty). */
  siblings: readonly ForeignFile[];
}

/** The task as the log names it. */
export interface ForeignTask {
  /** An external benchmark (`swe-bench-verified`, `multi-swe-bench`), or one of ours; null when unknown. */
  benchmark: string | null;
  /** The instance as the log names it (`django__django-11163`, or one of our instance ids). */
  instanceId: string | null;
  /** The task text the agent was given, when the log holds it. */
  prompt: string | null;
}

export interface ForeignAgent {
  /** openhands, swe-agent, mini-swe-agent, claude-code, codex, gemini-cli, inspect, smolagents, agno, or unknown. */
  framework: string;
  frameworkVersion: string | null;
  model: string | null;
  provider: string | null;
}

export interface ForeignUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

/** One run read from a foreign log. A file may hold several (an evaluation output.jsonl, predictions). */
export interface ForeignRun {
  /** Position of this run within its file: 0 for a one-run file. */
  index: number;
  /** The format's own version where the file says it (`mini-swe-agent-1`, Inspect's `version: 2`), else null. */
  formatVersion: string | null;
  task: ForeignTask;
  agent: ForeignAgent;
  /**
   * The steps in our trajectory model (lib/bundle/schema.ts). Tool calls keep the framework's own
   * tool name and arguments (the tool registry, lib/tool-registry/, says what each does) and are
   * answered by an `observation` with the same `callId` and `isError`; a command whose exit code is
   * known is a `shell` step. Step ids are unique within the run.
   */
  steps: TrajectoryStep[];
  /** False for a repo diff alone: no step was recorded, so trajectory metrics are not applicable. */
  hasTrajectory: boolean;
  /** The run's final change to the repository as a unified diff (git_patch, submission, model_patch), if any. */
  patch: string | null;
  /** The absolute directory the agent worked in (`/testbed`, `/workspace`, the session's cwd), when known. */
  workspaceRoot: string | null;
  status: "completed" | "failed";
  exitReason: ExitReason;
  error: string | null;
  /** ISO-8601 times from the log, when it has them. */
  startedAt: string | null;
  finishedAt: string | null;
  usage: ForeignUsage;
}

export interface ForeignFormat {
  /** Stable id, used by `--format` and stored in the run's provenance. */
  id: string;
  /** Shown in messages and on the run page: "OpenHands evaluation output (output.jsonl)". */
  label: string;
  /** Increments whenever the mapping to our model changes; stored with every run read by it. */
  readerVersion: number;
  /** Whether the file is in this format, from its content (and name only as a hint); must be cheap and bounded. */
  detect(file: ForeignFile): boolean;
  /** Reads every run of the file; throws ForeignFormatError naming the file, line or field on bad input. */
  read(file: ForeignFile, context: ForeignReadContext): ForeignRun[];
}

/** Bad foreign input: names the file and where in it (line, record, field). */
export class ForeignFormatError extends Error {
  constructor(
    readonly file: string,
    readonly where: string | null,
    message: string,
  ) {
    super(`${file}${where ? ` (${where})` : ""}: ${message}`);
    this.name = "ForeignFormatError";
  }
}

/** Usage of a run with no model accounting in its log. */
export const NO_USAGE: ForeignUsage = { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: null };
