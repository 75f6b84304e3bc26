/**
 * What the reading of one trajectory's file actions keeps from step to step, shared by its shell
 * (shell-actions.ts), tool-call (tool-actions.ts) and Python readings: the run's workspace (root
 * and files), the shell sessions' state (shell-session.ts), the Python scripts the agent wrote
 * whole, and how a path the agent wrote becomes file actions: resolved from the shell's directory
 * and matched exactly against the workspace's files, a glob expanded over them, a folder to the
 * files under it (workspace-paths.ts). file-actions.ts completes the reader and reads trajectories.
 */
import { persistentShell, type ToolDescription } from "@/lib/tool-registry";
import { ShellSession, type Cwd } from "./shell-session";
import { MAX_CODE_CHARS } from "./python-effects";
import { VIRTUAL_ROOT, expandGlob, filesUnder, isGlobPattern, relativeToRoot, resolvePath } from "./workspace-paths";

export interface FileAction {
  stepId: string;
  /** read: content looked at; write: created or changed; delete: removed; run: executed code. */
  kind: "read" | "write" | "delete" | "run";
  /**
   * The workspace-relative path when the path resolves inside the workspace, else as the agent
   * wrote it; null for a run of inline code or a change whose files are unknown (`git apply`).
   */
  path: string | null;
  /** The workspace-relative file, exactly; null when the path is outside the workspace or unknown. */
  file: string | null;
  /** run: the code or command line that ran (for "does it import the target"). */
  code?: string;
  /** write: the file was edited in place (str_replace, `sed -i`, a patch's update), so it existed before. */
  inPlace?: boolean;
}

/** What the reading of a trajectory needs to know about its run. */
export interface ActionContext {
  /** The agent's framework (the tool registry's key), null when unknown. */
  framework: string | null;
  /** The workspace's absolute path as the agent saw it; null to infer it (workspace-paths.ts). */
  workspaceRoot: string | null;
  /** Workspace-relative files (the manifest): globs expand over them; empty when unknown. */
  workspaceFiles: readonly string[];
}

/** Reads one trajectory step by step, keeping the shell sessions' state. */
export abstract class ActionReader {
  readonly root: string;
  /** The agent's framework (the tool registry's key), null when unknown. */
  readonly framework: string | null;
  readonly files: readonly string[];
  readonly fileSet: ReadonlySet<string>;
  readonly session: ShellSession;
  /** Python scripts the agent wrote with their whole content (here-document, file tool), by absolute path. */
  readonly scripts = new Map<string, string>();

  constructor(context: ActionContext, inferredRoot: string | null) {
    this.root = context.workspaceRoot?.replace(/\/+$/, "") || inferredRoot || VIRTUAL_ROOT;
    this.framework = context.framework;
    this.files = context.workspaceFiles;
    this.fileSet = new Set(context.workspaceFiles);
    this.session = new ShellSession(this.root, persistentShell(context.framework));
  }

  /** The actions of a tool call the registry describes; the shell reading hands it SWE-agent's shell commands. */
  abstract described(stepId: string, description: ToolDescription, args: Record<string, unknown>): FileAction[];

  /** Where a path points: workspace-relative when inside (taken under the first candidate directory naming a known file). */
  resolve(written: string, cwd: Cwd): { path: string; file: string | null } {
    let first: { path: string; file: string | null } | null = null;
    for (const dir of cwd) {
      const absolute = resolvePath(dir, written);
      const file = absolute === null ? null : relativeToRoot(absolute, this.root);
      const resolved = { path: file ?? written, file };
      if (file !== null && (this.fileSet.size === 0 || this.fileSet.has(file) || this.isFolder(file))) return resolved;
      first ??= resolved;
    }
    return first ?? { path: written, file: null };
  }

  private isFolder(file: string): boolean {
    return file === "" || this.files.some((f) => f.startsWith(`${file}/`));
  }

  /** Actions on a written path: a glob expands to the files it matches, a folder (when asked) to its files. */
  on(
    stepId: string,
    kind: FileAction["kind"],
    written: string,
    cwd: Cwd,
    options: { glob?: boolean; folders?: boolean; inPlace?: boolean } = {},
  ): FileAction[] {
    const mark = options.inPlace && kind === "write" ? { inPlace: true } : {};
    if (options.glob && isGlobPattern(written) && this.files.length > 0) {
      const pattern = resolvePath(cwd[0] ?? this.root, written);
      const relative = pattern === null ? null : relativeToRoot(pattern, this.root);
      const matched = relative === null ? [] : expandGlob(relative, this.files);
      if (matched.length > 0) return matched.map((file) => ({ stepId, kind, path: file, file, ...mark }));
    }
    const resolved = this.resolve(written, cwd);
    if (options.folders && resolved.file !== null && this.isFolder(resolved.file) && !this.fileSet.has(resolved.file)) {
      return filesUnder(resolved.file, this.files).map((file) => ({ stepId, kind, path: file, file, ...mark }));
    }
    return [{ stepId, kind, ...resolved, ...mark }];
  }

  /** Remembers a Python script written whole, for when it is run (`cat > x.py <<EOF`, then `python x.py`). */
  keepScript(written: string, cwd: Cwd, content: string): void {
    const absolute = written.endsWith(".py") ? resolvePath(cwd[0] ?? this.root, written) : null;
    if (absolute) this.scripts.set(absolute, content.slice(0, MAX_CODE_CHARS));
  }

  fileAction(stepId: string, kind: FileAction["kind"], file: string): FileAction {
    return { stepId, kind, path: file, file };
  }
}
