/**
 * The file tool set of the smolagents harness used in the published study: read, write and delete
 * one file, list a folder, and run Python code in the workspace. File access is checked against
 * the workspace (see lib/workspace/paths.ts) and, under the guard arm, against the sandbox's guard
 * (lib/workspace/guard.ts); Python runs in the sandbox, which contains it.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { ToolSpec } from "@/lib/llm/chat";
import {
  readResolved,
  clip,
  messageOf,
  resolveWorkspacePath,
  shellQuote,
  textOf,
  workspaceRootOf,
  type WorkspaceRoot,
} from "@/lib/workspace/paths";
import { DEFAULT_MAX_OUTPUT_CHARS, type ToolContext, type ToolResult, type ToolSet } from "./types";
import { allIssues } from "@/lib/errors/zod-issues";
import { assertGuardAllows, guardShellNote } from "@/lib/workspace/guard";

const pathParam = { type: "string", description: "File path, relative to the workspace or absolute." };

export const FILE_TOOL_SPECS: ToolSpec[] = [
  {
    name: "read_file",
    description: "Read a text file and return its content.",
    parameters: { type: "object", properties: { path: pathParam }, required: ["path"] },
  },
  {
    name: "write_file",
    description: "Write content to a file, replacing it if it exists; missing parent folders are created.",
    parameters: {
      type: "object",
      properties: { path: pathParam, content: { type: "string", description: "The whole new content." } },
      required: ["path", "content"],
    },
  },
  {
    name: "delete_file",
    description: "Delete a file (not a folder).",
    parameters: { type: "object", properties: { path: pathParam }, required: ["path"] },
  },
  {
    name: "list_dir",
    description: "List the entries of a folder; folders end with '/'.",
    parameters: {
      type: "object",
      properties: { path: { type: "string", description: "Folder path, relative to the workspace or absolute." } },
      required: ["path"],
    },
  },
  {
    name: "run_python",
    description: "Run Python code with the workspace as the working directory; returns what it printed.",
    parameters: {
      type: "object",
      properties: { code: { type: "string", description: "Python source to run." } },
      required: ["code"],
    },
  },
];

const PathArgs = z.object({ path: z.string() });
const ARGS = {
  read_file: PathArgs,
  write_file: z.object({ path: z.string(), content: z.string() }),
  delete_file: PathArgs,
  list_dir: PathArgs,
  run_python: z.object({ code: z.string() }),
};
type ToolName = keyof typeof ARGS;

const ok = (output: string, fileActions: ToolResult["fileActions"] = []): ToolResult => ({
  output,
  isError: false,
  fileActions,
});
const fail = (output: string): ToolResult => ({ output, isError: true, fileActions: [] });

export function createFileTools(context: ToolContext): ToolSet {
  const maxChars = context.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const python = context.python ?? "python3";
  let rootPromise: Promise<WorkspaceRoot> | null = null;
  const root = () => (rootPromise ??= workspaceRootOf(context.workspaceDir));

  const handlers: { [K in ToolName]: (args: z.infer<(typeof ARGS)[K]>) => Promise<ToolResult> } = {
    async read_file({ path: p }) {
      const target = await resolveWorkspacePath(await root(), p);
      const read = await readResolved(target);
      if (!read.ok) {
        const shown = read.reason.replace(target.abs.slice(1), target.abs);
        return fail(read.kind === "missing" ? `No such file or folder: ${target.abs}` : `${shown}.`);
      }
      const text = textOf(read.data);
      if (text === null) return fail(`${p} is not a text file.`);
      return ok(clip(text, maxChars, ` (file is ${text.length} characters)`), [{ kind: "read", path: target.rel }]);
    },
    async write_file({ path: p, content }) {
      const target = await resolveWorkspacePath(await root(), p);
      const exists = (await fs.lstat(target.abs).catch(() => null)) !== null;
      assertGuardAllows(context.sandbox.guard, await root(), target.abs, exists ? "write" : "create");
      await fs.mkdir(path.dirname(target.abs), { recursive: true });
      await fs.writeFile(target.abs, content);
      return ok(`Wrote ${Buffer.byteLength(content)} bytes to ${p}.`, [{ kind: "write", path: target.rel }]);
    },
    async delete_file({ path: p }) {
      const target = await resolveWorkspacePath(await root(), p, { followFinal: false });
      if (target.rel === ".") return fail("Refused: the workspace itself cannot be deleted.");
      const stat = await fs.lstat(target.abs);
      if (stat.isDirectory()) return fail(`${p} is a folder; delete_file deletes files only.`);
      assertGuardAllows(context.sandbox.guard, await root(), target.abs, "delete");
      await fs.unlink(target.abs);
      return ok(`Deleted ${p}.`, [{ kind: "delete", path: target.rel }]);
    },
    async list_dir({ path: p }) {
      const target = await resolveWorkspacePath(await root(), p);
      const entries = await fs.readdir(target.abs, { withFileTypes: true });
      const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
      return ok(names.length === 0 ? `${p} is empty.` : clip(names.join("\n"), maxChars));
    },
    async run_python({ code }) {
      const command = `${python} -c ${shellQuote(code)}`;
      const result = await context.sandbox.run(command, context.limits);
      const notes = [
        result.timedOut ? `[Timed out after ${context.limits.timeoutMs / 1000} s and stopped.]` : "",
        result.outputTruncated ? `[Output cut at ${context.limits.maxOutputBytes} bytes; the run was stopped.]` : "",
        !result.timedOut && result.exitCode !== 0 ? `[Exit code ${result.exitCode ?? "none (killed)"}.]` : "",
        context.sandbox.guard ? guardShellNote(result.output) : null,
      ].filter(Boolean);
      const output = clip([result.output.trimEnd(), ...notes].filter(Boolean).join("\n") || "(no output)", maxChars);
      return {
        output,
        isError: result.exitCode !== 0,
        fileActions: [],
        shell: { command, ...result },
      };
    },
  };

  return {
    specs: FILE_TOOL_SPECS,
    async execute(name, args) {
      if (!Object.hasOwn(ARGS, name))
        return fail(`Unknown tool ${name}; the tools are ${Object.keys(ARGS).join(", ")}.`);
      const tool = name as ToolName;
      const parsed = ARGS[tool].safeParse(args);
      if (!parsed.success) {
        return fail(`Invalid arguments for ${name}: ${allIssues(parsed.error, "arguments")}`);
      }
      try {
        return await (handlers[tool] as (a: unknown) => Promise<ToolResult>)(parsed.data);
      } catch (error) {
        return fail(messageOf(error));
      }
    },
  };
}
