/**
 * OpenHands' `str_replace_editor` (openhands-aci), same commands, messages and output shapes:
 * view (`cat -n` lines, or two levels of a folder), create (never over an existing file),
 * str_replace (a unique verbatim match, or an error naming the lines), insert (after a line),
 * undo_edit (back to the content before the last edit; undoing a create removes the file).
 * Paths may be relative or absolute but must stay inside the workspace (lib/workspace/paths.ts).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { ToolSpec } from "@/lib/llm/chat";
import { AppError } from "@/lib/errors/app-error";
import {
  clip,
  readResolved,
  resolveWorkspacePath,
  textOf,
  type WorkspacePath,
  type WorkspaceRoot,
} from "@/lib/workspace/paths";
import { assertGuardAllows, type GuardRules } from "@/lib/workspace/guard";
import type { FileAction, ToolResult } from "./types";

export const STR_REPLACE_EDITOR_SPEC: ToolSpec = {
  name: "str_replace_editor",
  description:
    "Custom editing tool for viewing, creating and editing files.\n" +
    "* `view` on a file shows `cat -n` numbered lines (optionally `view_range`); on a folder, non-hidden files and folders up to 2 levels deep\n" +
    "* `create` cannot be used if the file already exists\n" +
    "* `str_replace` replaces `old_str`, which must match exactly one place in the file (whitespace included), with `new_str`\n" +
    "* `insert` inserts `new_str` after line `insert_line` (0 inserts at the top)\n" +
    "* `undo_edit` reverts the last edit made to the file",
  parameters: {
    type: "object",
    properties: {
      command: { type: "string", enum: ["view", "create", "str_replace", "insert", "undo_edit"] },
      path: { type: "string", description: "File or folder path, absolute or relative to the workspace." },
      file_text: { type: "string", description: "Content of the file to create (`create`)." },
      old_str: { type: "string", description: "The exact text to replace (`str_replace`)." },
      new_str: { type: "string", description: "The new text (`str_replace`, `insert`)." },
      insert_line: { type: "integer", description: "Line after which `new_str` goes (`insert`)." },
      view_range: {
        type: "array",
        items: { type: "integer" },
        description: "[start, end] lines to show, 1-based; end -1 means to the end of the file (`view`).",
      },
    },
    required: ["command", "path"],
  },
};

export const EditorArgsSchema = z.object({
  command: z.enum(["view", "create", "str_replace", "insert", "undo_edit"]),
  path: z.string(),
  file_text: z.string().optional(),
  old_str: z.string().optional(),
  new_str: z.string().optional(),
  insert_line: z.coerce.number().int().optional(),
  view_range: z.array(z.coerce.number().int()).optional(),
});
export type EditorArgs = z.infer<typeof EditorArgsSchema>;

const SNIPPET_LINES = 4;
const CLIPPED_NOTE =
  "<NOTE>To save on context only part of this file has been shown to you. You should retry this tool after you have " +
  "searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>";

class EditorError extends AppError {
  constructor(message: string) {
    super("INVALID_INPUT", message);
  }
}

/** Lines of a text; a final newline does not make an extra empty line. */
const linesOf = (text: string) => (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");

function catN(content: string, descriptor: string, firstLine: number, maxChars: number): string {
  const numbered = linesOf(content)
    .map((line, i) => `${String(i + firstLine).padStart(6)}\t${line}`)
    .join("\n");
  return `Here's the result of running \`cat -n\` on ${descriptor}:\n${clip(numbered, maxChars, CLIPPED_NOTE)}\n`;
}

async function readText(target: WorkspacePath, shown: string): Promise<string> {
  const read = await readResolved(target);
  if (!read.ok) {
    if (read.kind === "missing")
      throw new EditorError(`The path ${shown} does not exist. Please provide a valid path.`);
    if (read.kind === "directory")
      throw new EditorError(
        `The path ${shown} is a directory and only the \`view\` command can be used on directories.`,
      );
    throw new EditorError(`The path ${shown} cannot be read: ${read.reason.replace(target.abs.slice(1), "it")}.`);
  }
  const text = textOf(read.data);
  if (text === null) throw new EditorError(`The file ${shown} is not a text file.`);
  return text;
}

async function listTwoLevels(dir: string, shown: string): Promise<{ lines: string[]; hidden: number }> {
  const lines = [`${shown}/`];
  let hidden = 0;
  const walk = async (abs: string, display: string, depth: number) => {
    const entries = (await fs.readdir(abs, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith(".")) {
        if (depth === 1) hidden += 1;
        continue;
      }
      const isDir = entry.isDirectory();
      lines.push(`${display}/${entry.name}${isDir ? "/" : ""}`);
      if (isDir && depth < 2) await walk(path.join(abs, entry.name), `${display}/${entry.name}`, depth + 1);
    }
  };
  await walk(dir, shown, 1);
  return { lines, hidden };
}

export interface StrReplaceEditor {
  execute(args: EditorArgs): Promise<ToolResult>;
}

/** `guard`: the sandbox guard's rules (the `guard` arm); every edit asks them first. */
export function createStrReplaceEditor(
  root: () => Promise<WorkspaceRoot>,
  maxChars: number,
  guard: GuardRules | null = null,
): StrReplaceEditor {
  /** Content before each edit, by real path; null = the file did not exist. */
  const history = new Map<string, (string | null)[]>();
  const remember = (abs: string, before: string | null) => history.set(abs, [...(history.get(abs) ?? []), before]);
  const done = (output: string, fileActions: FileAction[]): ToolResult => ({ output, isError: false, fileActions });
  const required = <T>(value: T | undefined, name: string, command: string): T => {
    if (value === undefined) throw new EditorError(`Parameter \`${name}\` is required for command: ${command}.`);
    return value;
  };

  async function view(args: EditorArgs, target: WorkspacePath, shown: string): Promise<ToolResult> {
    const stat = await fs.stat(target.abs).catch(() => null);
    if (!stat) throw new EditorError(`The path ${shown} does not exist. Please provide a valid path.`);
    if (stat.isDirectory()) {
      if (args.view_range)
        throw new EditorError("The `view_range` parameter is not allowed when `path` points to a directory.");
      const { lines, hidden } = await listTwoLevels(target.abs, target.display);
      const note = hidden
        ? `\n\n${hidden} hidden files/directories in this directory are excluded. You can use 'ls -la ${target.display}' to see them.`
        : "";
      return done(
        `Here's the files and directories up to 2 levels deep in ${target.display}, excluding hidden items:\n` +
          `${clip(lines.join("\n"), maxChars)}${note}`,
        [],
      );
    }
    const text = await readText(target, shown);
    const read: FileAction[] = [{ kind: "read", path: target.rel }];
    if (!args.view_range) return done(catN(text, shown, 1, maxChars), read);
    const lines = linesOf(text);
    const [start, end] = args.view_range;
    const range = `[${args.view_range.join(", ")}]`;
    if (args.view_range.length !== 2 || start === undefined || end === undefined)
      throw new EditorError("Invalid `view_range` parameter. It should be a list of two integers.");
    if (start < 1 || start > lines.length)
      throw new EditorError(
        `Invalid \`view_range\` parameter: ${range}. Its first element \`${start}\` should be within the range of lines of the file: [1, ${lines.length}].`,
      );
    if (end !== -1 && (end < start || end > lines.length))
      throw new EditorError(
        `Invalid \`view_range\` parameter: ${range}. Its second element \`${end}\` should be -1 or within [${start}, ${lines.length}].`,
      );
    const shownLines = lines.slice(start - 1, end === -1 ? undefined : end).join("\n");
    return done(catN(shownLines, shown, start, maxChars), read);
  }

  async function create(args: EditorArgs, target: WorkspacePath, shown: string): Promise<ToolResult> {
    const fileText = required(args.file_text, "file_text", "create");
    if (await fs.lstat(target.abs).catch(() => null))
      throw new EditorError(
        `Invalid \`path\` parameter: ${shown}. File already exists at: ${shown}. Cannot overwrite files using command \`create\`.`,
      );
    assertGuardAllows(guard, await root(), target.abs, "create");
    await fs.mkdir(path.dirname(target.abs), { recursive: true });
    await fs.writeFile(target.abs, fileText, { flag: "wx" });
    remember(target.abs, null);
    return done(`File created successfully at: ${shown}`, [{ kind: "write", path: target.rel }]);
  }

  async function strReplace(args: EditorArgs, target: WorkspacePath, shown: string): Promise<ToolResult> {
    const oldStr = required(args.old_str, "old_str", "str_replace");
    const newStr = args.new_str ?? "";
    const text = await readText(target, shown);
    if (oldStr === newStr)
      throw new EditorError("No replacement was performed. `new_str` and `old_str` must be different.");
    const starts: number[] = [];
    for (let at = text.indexOf(oldStr); at !== -1 && oldStr.length > 0; at = text.indexOf(oldStr, at + 1)) {
      starts.push(at);
    }
    if (starts.length === 0)
      throw new EditorError(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${shown}.`);
    const lineAt = (offset: number) => text.slice(0, offset).split("\n").length;
    if (starts.length > 1)
      throw new EditorError(
        `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines ${JSON.stringify(starts.map(lineAt))}. Please ensure it is unique.`,
      );
    const at = starts[0]!;
    const edited = text.slice(0, at) + newStr + text.slice(at + oldStr.length);
    assertGuardAllows(guard, await root(), target.abs, "write");
    await fs.writeFile(target.abs, edited);
    remember(target.abs, text);
    const replacedLine = lineAt(at) - 1;
    const first = Math.max(0, replacedLine - SNIPPET_LINES);
    const last = replacedLine + SNIPPET_LINES + newStr.split("\n").length - 1;
    const snippet = linesOf(edited)
      .slice(first, last + 1)
      .join("\n");
    return done(
      `The file ${shown} has been edited. ${catN(snippet, `a snippet of ${shown}`, first + 1, maxChars)}` +
        "Review the changes and make sure they are as expected. Edit the file again if necessary.",
      [{ kind: "write", path: target.rel }],
    );
  }

  async function insert(args: EditorArgs, target: WorkspacePath, shown: string): Promise<ToolResult> {
    const line = required(args.insert_line, "insert_line", "insert");
    const newStr = required(args.new_str, "new_str", "insert");
    const text = await readText(target, shown);
    const lines = text.length === 0 ? [] : linesOf(text);
    if (line < 0 || line > lines.length)
      throw new EditorError(
        `Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${lines.length}]`,
      );
    const added = linesOf(newStr);
    const editedLines = [...lines.slice(0, line), ...added, ...lines.slice(line)];
    const edited = `${editedLines.join("\n")}${text.endsWith("\n") || text.length === 0 ? "\n" : ""}`;
    assertGuardAllows(guard, await root(), target.abs, "write");
    await fs.writeFile(target.abs, edited);
    remember(target.abs, text);
    const first = Math.max(0, line - SNIPPET_LINES);
    const snippet = editedLines.slice(first, line + added.length + SNIPPET_LINES).join("\n");
    return done(
      `The file ${shown} has been edited. ${catN(snippet, "a snippet of the edited file", first + 1, maxChars)}` +
        "Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). " +
        "Edit the file again if necessary.",
      [{ kind: "write", path: target.rel }],
    );
  }

  async function undo(target: WorkspacePath, shown: string): Promise<ToolResult> {
    const previous = history.get(target.abs);
    if (!previous || previous.length === 0) throw new EditorError(`No edit history found for ${shown}.`);
    const content = previous.at(-1)!;
    assertGuardAllows(guard, await root(), target.abs, content === null ? "delete" : "write");
    previous.pop();
    if (content === null) {
      await fs.rm(target.abs, { force: true });
      return done(`Last edit to ${shown} undone successfully: the file did not exist before and was removed.`, [
        { kind: "delete", path: target.rel },
      ]);
    }
    await fs.writeFile(target.abs, content);
    return done(`Last edit to ${shown} undone successfully. ${catN(content, shown, 1, maxChars)}`, [
      { kind: "write", path: target.rel },
    ]);
  }

  return {
    async execute(args) {
      const target = await resolveWorkspacePath(await root(), args.path);
      const shown = args.path;
      if (
        args.command !== "view" &&
        args.command !== "create" &&
        (await fs.stat(target.abs).catch(() => null))?.isDirectory()
      )
        throw new EditorError(
          `The path ${shown} is a directory and only the \`view\` command can be used on directories.`,
        );
      switch (args.command) {
        case "view":
          return view(args, target, shown);
        case "create":
          return create(args, target, shown);
        case "str_replace":
          return strReplace(args, target, shown);
        case "insert":
          return insert(args, target, shown);
        case "undo_edit":
          return undo(target, shown);
      }
    },
  };
}
