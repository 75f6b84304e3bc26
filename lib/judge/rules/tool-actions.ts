/**
 * What a tool call does to files, read from the tool registry's description of the tool
 * (lib/tool-registry): its effect (read, search, write, edit, delete, shell, python, patch), which
 * of its arguments hold paths, globs, the command, the code or the patch, and whether it acts on
 * the file an editor has open (SWE-agent). A shell or Python call is read as its command or code
 * (shell-actions.ts).
 */
import { fileActionOf, type ToolDescription } from "@/lib/tool-registry";
import type { ActionReader, FileAction } from "./action-reader";
import { patchFiles } from "./patch-files";
import { argvCommand } from "./shell-parse";
import { pythonActions, shellStepActions } from "./shell-actions";
import type { Cwd } from "./shell-session";

/** A tool call's arguments as an object (a JSON string parsed; other text as `input`). */
export function argumentsOf(step: { arguments: unknown }): Record<string, unknown> {
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

/** The strings of the named arguments (a string, or a list of strings), in order. */
function stringsOf(args: Record<string, unknown>, keys: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const key of keys) {
    const value = args[key];
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === "string") found.push(v);
  }
  return found;
}

/** The first present of the named arguments as a command line (an argv list is quoted back). */
function commandOf(args: Record<string, unknown>, keys: readonly string[]): string {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === "string") return value;
    if (Array.isArray(value)) return argvCommand(value.map(String));
  }
  return typeof args.input === "string" ? args.input : "";
}

/** The actions of a tool call as the tool registry describes the tool (its effect, and which arguments say what). */
export function toolCallActions(
  reader: ActionReader,
  stepId: string,
  description: ToolDescription,
  args: Record<string, unknown>,
): FileAction[] {
  const root: Cwd = [reader.root];
  const subcommand = description.subcommandArg ? args[description.subcommandArg] : undefined;
  const effect =
    (typeof subcommand === "string" ? description.subcommands?.[subcommand] : undefined) ?? description.effect;
  switch (effect) {
    case "shell": {
      const command = commandOf(args, description.commandArgs ?? []);
      const workdir = stringsOf(args, description.workdirArgs)[0] ?? null;
      return shellStepActions(reader, stepId, command, workdir);
    }
    case "python": {
      const code = commandOf(args, description.codeArgs ?? []);
      const scripts = stringsOf(args, description.pathArgs);
      return [
        ...pythonActions(reader, stepId, code, root),
        { stepId, kind: "run", path: scripts[0] ?? null, file: null, code: code || scripts.join(" ") },
      ];
    }
    case "patch": {
      const text = stringsOf(args, description.patchArgs)[0] ?? "";
      return patchFiles(text).flatMap((p) => reader.on(stepId, p.kind, p.path, root, { inPlace: p.inPlace }));
    }
    case "read":
    case "search":
    case "write":
    case "edit":
    case "delete": {
      const kind = fileActionOf(effect) ?? "read";
      let paths = stringsOf(args, description.pathArgs);
      if (description.actsOnOpenFile && paths.length === 0 && reader.session.openFile)
        paths = [reader.session.openFile];
      if (description.opensFile && paths[0]) reader.session.openFile = paths[0];
      const globs = stringsOf(args, description.globArgs).filter((g) => !paths.includes(g));
      const many = description.globArgs !== undefined && effect === "read";
      const content = stringsOf(args, ["content", "file_text", "contents"])[0];
      if (effect === "write" && content !== undefined && paths[0]) reader.keepScript(paths[0], root, content);
      const actions = [...paths, ...globs].flatMap((p) =>
        reader.on(stepId, kind, p, root, {
          glob: many || globs.includes(p),
          folders: many,
          inPlace: effect === "edit",
        }),
      );
      // A search shows lines of the files it was pointed at, not of a folder it walked.
      return effect === "search" ? actions.filter((a) => a.file !== null && reader.fileSet.has(a.file)) : actions;
    }
    default:
      return [];
  }
}
