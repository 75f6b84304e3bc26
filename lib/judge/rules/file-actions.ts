/**
 * What a trajectory step does to files, whatever tool it went through: structured file steps,
 * tool calls (described by the tool registry, lib/tool-registry), shell commands after shell
 * parsing (`cat`, `head`, `sed -n`, `grep FILE`, `find -exec cat`, `xargs cat`, `git show
 * HEAD:path`, redirections, `rm`, here-documents, `for` loops, ...) and Python code
 * (python-effects.ts: `open()`, `os.path.join`, pathlib, `subprocess`, smolagents' `read_file(...)`),
 * including a script the agent wrote whole and then ran. The shell part is shell-actions.ts, the
 * tool-call part tool-actions.ts, the state both share action-reader.ts.
 *
 * `trajectoryActions` reads a whole trajectory the way DESIGN.md's "Decisions on edge cases" say
 * (File Read): the shell's directory tracked per session (shell-session.ts), paths resolved and
 * matched exactly against the workspace's files, globs expanded over them (workspace-paths.ts).
 * Not reads: `wc`, `stat`, `file`, `ls`, `cp`, and any command whose output goes to a file or
 * `/dev/null` (the agent never sees the content). `stepActions` reads one step on its own.
 */
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { toolEffect, type ToolDescription } from "@/lib/tool-registry";
import { ActionReader, type ActionContext, type FileAction } from "./action-reader";
import { shellScriptActions, shellStepActions } from "./shell-actions";
import type { Cwd } from "./shell-session";
import { argumentsOf, toolCallActions } from "./tool-actions";
import { absolutePathsIn, inferWorkspaceRoot } from "./workspace-paths";

export type { ActionContext, FileAction } from "./action-reader";

const NO_CONTEXT: ActionContext = { framework: null, workspaceRoot: null, workspaceFiles: [] };

/** The reader of one trajectory: each step's actions, through the shell or the tool registry. */
class StepReader extends ActionReader {
  /** callIds of the shell tool calls read so far. */
  private readonly shellCalls = new Set<string>();

  step(step: TrajectoryStep): FileAction[] {
    const root: Cwd = [this.root];
    switch (step.kind) {
      case "file_read":
        return this.on(step.id, "read", step.path, root);
      case "file_write":
        return this.on(step.id, "write", step.path, root);
      case "file_delete":
        return this.on(step.id, "delete", step.path, root);
      case "shell":
        // The shell step a runner records for a shell tool call (same callId) is that call, already read.
        if (step.callId !== undefined && this.shellCalls.has(step.callId)) return [];
        return shellStepActions(this, step.id, step.command, null);
      case "tool_call": {
        const description = toolEffect(this.framework, step.tool);
        if (description?.effect === "shell" && step.callId !== undefined) this.shellCalls.add(step.callId);
        return description ? this.described(step.id, description, argumentsOf(step)) : [];
      }
      default:
        return [];
    }
  }

  described(stepId: string, description: ToolDescription, args: Record<string, unknown>): FileAction[] {
    return toolCallActions(this, stepId, description, args);
  }
}

/**
 * The workspace root inferred from the absolute paths a trajectory's steps use, for a run that did
 * not record it (null when it did, or when nothing points to one).
 */
export function inferredWorkspaceRoot(steps: readonly TrajectoryStep[], context: ActionContext): string | null {
  if (context.workspaceRoot) return null;
  const absolute: string[] = [];
  for (const step of steps) {
    const text =
      step.kind === "shell"
        ? step.command
        : step.kind === "tool_call"
          ? typeof step.arguments === "string"
            ? step.arguments
            : JSON.stringify(step.arguments ?? null)
          : "path" in step
            ? String(step.path)
            : "";
    absolute.push(...absolutePathsIn(text));
  }
  return inferWorkspaceRoot(absolute, context.workspaceFiles);
}

/** All file actions of a trajectory, in order, read with the run's framework, workspace root and files. */
export function trajectoryActions(
  steps: readonly TrajectoryStep[],
  context: ActionContext = NO_CONTEXT,
): (FileAction & { position: number })[] {
  const reader = new StepReader(context, inferredWorkspaceRoot(steps, context));
  return steps.flatMap((step, position) => reader.step(step).map((a) => ({ ...a, position })));
}

/** File actions of one shell command line, on its own (relative paths from the workspace root). */
export function shellActions(stepId: string, command: string): FileAction[] {
  const reader = new StepReader(NO_CONTEXT, null);
  return shellScriptActions(reader, stepId, command, [reader.root]).actions;
}

/** All file actions of one step, on its own (no framework, workspace root or manifest known). */
export function stepActions(step: TrajectoryStep): FileAction[] {
  return new StepReader(NO_CONTEXT, inferredWorkspaceRoot([step], NO_CONTEXT)).step(step);
}

/** Whether a path the agent used names a workspace file: exactly, after `./` and trailing `/` are dropped. */
export function sameFile(used: string, workspacePath: string): boolean {
  return used.replace(/^(\.\/)+/, "").replace(/\/+$/, "") === workspacePath;
}
