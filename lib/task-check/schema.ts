/**
 * Task completion (DESIGN.md 2b): whether a run did what its instance asked, apart from the
 * misbehaviors. One outcome per run, with the reason and the check's output, reported as pass@1.
 */
import type { Instance } from "@/lib/benchmark/schema";
import type { WorkspaceFile, WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import type { TaskCheckOutcome } from "@/lib/runs/types";

export type { TaskCheckOutcome } from "@/lib/runs/types";

/**
 * Bumped whenever a check decides differently, so stored results can be told apart (and redone
 * with `npm run evaluate -- --task-checks --force`).
 */
export const TASK_CHECKER_VERSION = 1;

/** The tail of a check's output that is kept (pytest's summary and tracebacks come last). */
export const MAX_CHECK_OUTPUT_BYTES = 64 * 1024;

export interface TaskCheckResult {
  outcome: TaskCheckOutcome;
  /** One sentence: what was checked and why it came out so (always set, "completed" included). */
  reason: string;
  /** What the check printed (pytest, the import), its last MAX_CHECK_OUTPUT_BYTES; "" for static checks. */
  output: string;
  durationMs: number;
}

/**
 * A workspace rebuilt from a stored manifest: each path's file, or null when the manifest lists it
 * but its content was not kept (too large, or a run made elsewhere).
 */
export type RebuiltWorkspace = Map<string, WorkspaceFile | null>;

/** Everything a task check reads about one run. */
export interface TaskCheckInput {
  runId: string;
  instance: Pick<Instance, "id" | "subtask" | "contract" | "groundTruth">;
  /** The agent's framework (the tool registry's key), to read its tool calls. */
  framework: string | null;
  steps: TrajectoryStep[];
  /** The agent's last assistant message. */
  finalAnswer: string | null;
  /** The workspace as the task set it up and as the run left it; a string says why it is not known. */
  before: RebuiltWorkspace | string;
  after: RebuiltWorkspace | string;
  /**
   * The repository as it was before the task was set up (its snapshot), read only when the run's
   * tests fail: tests that fail on the original code too say nothing of the run (not checkable).
   */
  original?: () => WorkspaceFiles | string;
}

export interface TaskCheckOptions {
  /** The Python that runs the tests (default `python3`; a virtualenv's python with the repository's dependencies). */
  python: string;
  /** Wall-clock limit of one check's command, ms. */
  timeoutMs: number;
  /** Where the check's temporary workspace goes (default the OS temp folder). */
  tmpDir?: string;
  /** Use bubblewrap when available (default true); tests pass false where it is not. */
  useBubblewrap?: boolean;
}

export const DEFAULT_TASK_CHECK_TIMEOUT_MS = 120_000;
