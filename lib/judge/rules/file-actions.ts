/**
 * What a trajectory step does to files, whatever tool it went through: structured file steps,
 * tool calls of the known agents (file tools, editors, Claude Code, Gemini CLI, Codex, OpenHands),
 * shell commands (`cat`, `head`, `sed -n`, `grep FILE`, redirections, `rm`, ...) and Python `open()`.
 */
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { quoteWords, simpleCommands, unwrap } from "./shell-parse";

export interface FileAction {
  stepId: string;
  /** read: content looked at; write: created or changed; delete: removed; run: executed code. */
  kind: "read" | "write" | "delete" | "run";
  path: string | null;
}

const READ_TOOLS = new Set([
  "read_file",
  "read",
  "view",
  "view_file",
  "open_file",
  "cat",
  "read_many_files",
  "get_file_contents",
]);
const WRITE_TOOLS = new Set([
  "write_file",
  "write",
  "create_file",
  "edit",
  "edit_file",
  "multiedit",
  "replace",
  "str_replace",
  "insert",
  "apply_patch",
  "notebookedit",
]);
const DELETE_TOOLS = new Set(["delete_file", "remove_file", "rm"]);
const SHELL_TOOLS = new Set([
  "bash",
  "shell",
  "execute_bash",
  "run_shell_command",
  "exec_command",
  "terminal",
  "run_command",
  "cmd",
]);
const PYTHON_TOOLS = new Set(["run_python", "python", "execute_python", "run_ipython", "ipython"]);
const EDITOR_TOOLS = new Set(["str_replace_editor", "file_editor", "str_replace_based_edit_tool", "editor"]);

/** Argument names that carry a file path, across the agents' tool schemas. */
export const PATH_KEYS = [
  "path",
  "file_path",
  "filePath",
  "absolute_path",
  "filename",
  "file",
  "target_file",
  "notebook_path",
];

function argumentsOf(step: { arguments: unknown }): Record<string, unknown> {
  const args = step.arguments;
  if (typeof args === "string") {
    try {
      const parsed: unknown = JSON.parse(args);
      return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : { input: args };
    } catch {
      return { input: args };
    }
  }
  return args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
}

function pathsIn(args: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const key of PATH_KEYS) if (typeof args[key] === "string") found.push(args[key] as string);
  for (const key of ["paths", "files", "file_paths"]) {
    const list = args[key];
    if (Array.isArray(list)) for (const p of list) if (typeof p === "string") found.push(p);
  }
  return found;
}

/** Paths that `open(...)` reads or writes in a piece of Python. */
export function pythonOpens(code: string): { path: string; write: boolean }[] {
  const found: { path: string; write: boolean }[] = [];
  const pattern = /open\(\s*(?:r|b|rb|f)?(['"])([^'"]+)\1\s*(?:,\s*(?:mode\s*=\s*)?(['"])([^'"]*)\3)?/g;
  for (const match of code.matchAll(pattern)) {
    const mode = match[4] ?? "r";
    found.push({ path: match[2] ?? "", write: /[wax+]/.test(mode) });
  }
  for (const match of code.matchAll(/Path\(\s*(['"])([^'"]+)\1\s*\)\.(read|write)_(?:text|bytes)\(/g)) {
    found.push({ path: match[2] ?? "", write: match[3] === "write" });
  }
  return found;
}

const READERS = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "nl",
  "bat",
  "view",
  "sed",
  "awk",
  "grep",
  "egrep",
  "rg",
  "ag",
  "wc",
  "diff",
  "cut",
  "sort",
  "uniq",
  "od",
  "xxd",
  "strings",
  "file",
]);
const SHELLS = new Set(["bash", "sh", "zsh", "dash"]);
const PATTERN_FIRST = new Set(["sed", "awk", "grep", "egrep", "rg", "ag"]);
const PYTHONS = new Set(["python", "python3", "python2", "pytest", "py.test"]);

const looksLikePath = (word: string) => !word.startsWith("-") && /[./]/.test(word) && !/^\d+(,\d+)?p?$/.test(word);

/** File actions of one shell command line. */
export function shellActions(stepId: string, command: string): FileAction[] {
  const actions: FileAction[] = [];
  for (const { words, redirects } of simpleCommands(command)) {
    for (const r of redirects) {
      if (r.op === "<") actions.push({ stepId, kind: "read", path: r.target });
      else if (r.target !== "/dev/null" && !/^\d$/.test(r.target))
        actions.push({ stepId, kind: "write", path: r.target });
    }
    const [program = "", ...args] = unwrap(words);
    const name = program.split("/").at(-1) ?? program;
    if (SHELLS.has(name)) {
      const scriptIndex = args.findIndex((a) => /^-\w*c$/.test(a));
      if (scriptIndex >= 0) actions.push(...shellActions(stepId, args[scriptIndex + 1] ?? ""));
      continue;
    }
    // sed, awk and grep take a script or pattern first (unless given with -e or -f).
    const patternFirst = PATTERN_FIRST.has(name) && !args.some((a) => a === "-e" || a === "-f" || a === "--regexp");
    const firstOperand = args.findIndex((a) => !a.startsWith("-"));
    const operands = args.filter((a, i) => looksLikePath(a) && !(patternFirst && i === firstOperand));
    if (name === "sed" && args.some((a) => a === "-i" || a.startsWith("-i"))) {
      for (const p of operands) actions.push({ stepId, kind: "write", path: p });
    } else if (READERS.has(name)) {
      for (const p of operands) actions.push({ stepId, kind: "read", path: p });
    } else if (name === "rm" || name === "unlink") {
      for (const p of args.filter((a) => !a.startsWith("-"))) actions.push({ stepId, kind: "delete", path: p });
    } else if (name === "mv") {
      const [from, to] = args.filter((a) => !a.startsWith("-"));
      if (from) actions.push({ stepId, kind: "delete", path: from });
      if (to) actions.push({ stepId, kind: "write", path: to });
    } else if (name === "cp" || name === "tee" || name === "touch") {
      const paths = args.filter((a) => !a.startsWith("-"));
      if (name === "cp" && paths.length >= 2) {
        actions.push({ stepId, kind: "read", path: paths[0]! });
        actions.push({ stepId, kind: "write", path: paths.at(-1)! });
      } else for (const p of paths) actions.push({ stepId, kind: "write", path: p });
    } else if (PYTHONS.has(name)) {
      const codeIndex = args.indexOf("-c");
      const code = codeIndex >= 0 ? (args[codeIndex + 1] ?? "") : "";
      for (const o of pythonOpens(code)) actions.push({ stepId, kind: o.write ? "write" : "read", path: o.path });
      actions.push({
        stepId,
        kind: "run",
        path: codeIndex >= 0 ? null : (args.find((a) => a.endsWith(".py")) ?? null),
      });
    }
  }
  return actions;
}

/** All file actions of one step. */
export function stepActions(step: TrajectoryStep): FileAction[] {
  switch (step.kind) {
    case "file_read":
      return [{ stepId: step.id, kind: "read", path: step.path }];
    case "file_write":
      return [{ stepId: step.id, kind: "write", path: step.path }];
    case "file_delete":
      return [{ stepId: step.id, kind: "delete", path: step.path }];
    case "shell":
      return shellActions(step.id, step.command);
    case "tool_call": {
      const tool = step.tool.toLowerCase();
      const args = argumentsOf(step);
      if (SHELL_TOOLS.has(tool)) {
        const command = args.command ?? args.cmd ?? args.input;
        const text = Array.isArray(command)
          ? quoteWords(command.map(String))
          : typeof command === "string"
            ? command
            : "";
        return shellActions(step.id, text);
      }
      if (PYTHON_TOOLS.has(tool)) {
        const code = typeof (args.code ?? args.input) === "string" ? String(args.code ?? args.input) : "";
        return [
          ...pythonOpens(code).map((o): FileAction => ({
            stepId: step.id,
            kind: o.write ? "write" : "read",
            path: o.path,
          })),
          { stepId: step.id, kind: "run", path: null },
        ];
      }
      const paths = pathsIn(args);
      if (EDITOR_TOOLS.has(tool)) {
        const kind = args.command === "view" ? "read" : "write";
        return paths.map((p) => ({ stepId: step.id, kind, path: p }));
      }
      if (READ_TOOLS.has(tool)) return paths.map((p) => ({ stepId: step.id, kind: "read", path: p }));
      if (WRITE_TOOLS.has(tool)) return paths.map((p) => ({ stepId: step.id, kind: "write", path: p }));
      if (DELETE_TOOLS.has(tool)) return paths.map((p) => ({ stepId: step.id, kind: "delete", path: p }));
      return [];
    }
    default:
      return [];
  }
}

/** Whether a path the agent used names a workspace file (relative, `./x`, or absolute ending in it). */
export function sameFile(used: string, workspacePath: string): boolean {
  const clean = used.replace(/^\.\//, "").replace(/\/+$/, "");
  return clean === workspacePath || clean.endsWith(`/${workspacePath}`);
}
