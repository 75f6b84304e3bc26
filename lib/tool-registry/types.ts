/**
 * The shape of the tool registry (lib/tool-registry/): what each tool of an agent framework does,
 * as data. A tool is described by its effect and by the names of the arguments that carry its
 * paths, command, code, globs, subcommand or working directory; the rules (lib/judge/rules) and
 * the readers of foreign logs (lib/foreign) interpret these descriptions, never tool names.
 */

/** What a tool does. `edit` changes an existing file in place; `patch` applies a patch text. */
export type ToolEffect =
  "read" | "write" | "edit" | "delete" | "shell" | "python" | "search" | "list" | "patch" | "other";

/** The file action of a file tool's effect: what it does to the files its path arguments name. */
export function fileActionOf(effect: ToolEffect): "read" | "write" | "delete" | null {
  if (effect === "read" || effect === "search") return "read";
  if (effect === "write" || effect === "edit") return "write";
  if (effect === "delete") return "delete";
  return null;
}

export interface ToolDescription {
  effect: ToolEffect;
  /** Arguments holding a file path, or a list of paths (every one present is used). */
  pathArgs: string[];
  /** shell: arguments holding the command, a string or an argv array (the first present is used). */
  commandArgs?: string[];
  /** python: arguments holding the code (the first present is used). */
  codeArgs?: string[];
  /** Arguments holding glob patterns (or lists of them), expanded against the workspace's files. */
  globArgs?: string[];
  /** patch: arguments holding the patch text (Codex's `*** Begin Patch` envelope or a unified diff). */
  patchArgs?: string[];
  /** shell: arguments naming the directory the command runs in (Codex `workdir`, Gemini CLI `directory`). */
  workdirArgs?: string[];
  /** The argument that picks what the tool does (`command` of str_replace_editor). */
  subcommandArg?: string;
  /** The effect of each subcommand value; a value not listed keeps `effect`. */
  subcommands?: Record<string, ToolEffect>;
  /**
   * The tool is also a command typed in the agent's shell (SWE-agent's `open pkg/a.py 20`): the
   * names of its positional words, in order, mapped onto the argument names above.
   */
  positional?: string[];
  /** SWE-agent: the tool makes its path the "open file" that later calls without a path act on. */
  opensFile?: boolean;
  /** SWE-agent: without a path argument, the tool acts on the open file (`edit 10:12`, `goto 40`). */
  actsOnOpenFile?: boolean;
}

export interface FrameworkTools {
  /** The registry's key (`claude-code`), as DESIGN.md 2c and ForeignAgent.framework name it. */
  id: string;
  /** Other names the framework goes by in configurations and logs (`file-tools`, `inspect_ai`). */
  aliases: string[];
  /**
   * Whether the shell keeps its working directory from one call to the next (OpenHands, Claude
   * Code, SWE-agent, our terminal-editor agent) or each command starts afresh in the workspace
   * (mini-swe-agent, Codex, Gemini CLI: a subprocess per command).
   */
  persistentShell: boolean;
  /** The tools by name, spelled as the framework spells them. */
  tools: Record<string, ToolDescription>;
  /** Tools the agent calls as Python functions inside its code actions (smolagents' `read_file(...)`). */
  pythonFunctions?: Record<string, ToolDescription>;
  /**
   * The harness's own submission protocol, typed in the agent's shell: a command line that opens
   * with `echo MARKER` is how the framework collects the run's result (mini-swe-agent's `echo
   * COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached`), so what the rest of
   * the line does to git is the harness's doing, not the agent's. Frameworks whose submission is a
   * tool (SWE-agent's `submit`) need none: the tool is described as `other`.
   */
  submissionMarkers?: string[];
}

/** Shorthands for the tables. */
export const read = (...pathArgs: string[]): ToolDescription => ({ effect: "read", pathArgs });
export const write = (...pathArgs: string[]): ToolDescription => ({ effect: "write", pathArgs });
export const edit = (...pathArgs: string[]): ToolDescription => ({ effect: "edit", pathArgs });
export const remove = (...pathArgs: string[]): ToolDescription => ({ effect: "delete", pathArgs });
export const list = (...pathArgs: string[]): ToolDescription => ({ effect: "list", pathArgs });
export const search = (...pathArgs: string[]): ToolDescription => ({ effect: "search", pathArgs });
export const other = (): ToolDescription => ({ effect: "other", pathArgs: [] });
export const shellTool = (commandArgs: string[], workdirArgs: string[] = []): ToolDescription => ({
  effect: "shell",
  pathArgs: [],
  commandArgs,
  ...(workdirArgs.length > 0 ? { workdirArgs } : {}),
});
export const pythonTool = (...codeArgs: string[]): ToolDescription => ({ effect: "python", pathArgs: [], codeArgs });

/** The str_replace_editor family (Anthropic's text editor tool, OpenHands, SWE-agent, Inspect's text_editor). */
export const strReplaceEditor = (): ToolDescription => ({
  effect: "edit",
  pathArgs: ["path"],
  subcommandArg: "command",
  subcommands: { view: "read", create: "write", str_replace: "edit", insert: "edit", undo_edit: "edit" },
});
