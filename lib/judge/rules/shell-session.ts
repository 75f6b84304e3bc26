/**
 * The working directory of an agent's shell through a trajectory. Within one command line `cd`
 * applies to what follows it (`cd pkg && cat a.py`; a subshell's `cd` ends with it); between
 * steps it carries over only where the framework's shell is one persistent session (OpenHands,
 * Claude Code, SWE-agent, our terminal-editor agent: lib/tool-registry's `persistentShell`);
 * mini-swe-agent, Codex and Gemini CLI start each command afresh in the workspace (or in the
 * call's own `workdir`). For a framework nobody knows, both readings are kept: the directory is a
 * list of candidates, the most likely first, and a path is taken under the first candidate where
 * it names a workspace file.
 */
import { resolvePath } from "./workspace-paths";

/** Candidate current directories (absolute), the most likely first; never empty. */
export type Cwd = readonly string[];

/**
 * The candidates after `cd target` (no target: the home folder, outside the workspace). A target
 * nobody can know (`cd $REPO`, `cd -`) leaves the directory as it was.
 */
export function changeDirectory(cwd: Cwd, target: string | undefined): Cwd {
  if (target === "-") return cwd;
  const moved = cwd.map((dir) => resolvePath(dir, target ?? "~") ?? dir);
  return [...new Set(moved)];
}

export class ShellSession {
  private kept: string;
  /** SWE-agent's open file (`open`, `create`), which `edit` and `goto` act on; workspace-relative or absolute. */
  openFile: string | null = null;

  /**
   * @param root the workspace root as the agent saw it (absolute)
   * @param persistent whether the shell keeps its directory between steps; null when unknown
   */
  constructor(
    readonly root: string,
    readonly persistent: boolean | null,
  ) {
    this.kept = root;
  }

  /** Where a step's command starts, given the call's own working-directory argument if any. */
  start(workdir: string | null = null): Cwd {
    if (workdir) return [resolvePath(this.root, workdir) ?? this.root];
    if (this.persistent === true) return [this.kept];
    if (this.persistent === false) return [this.root];
    return [...new Set([this.kept, this.root])];
  }

  /** After a step's command: where its top-level shell ended, kept for the next step when the shell persists. */
  end(cwd: Cwd): void {
    if (this.persistent !== false && cwd[0]) this.kept = cwd[0];
  }
}
