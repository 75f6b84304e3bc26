/**
 * The two built-in agents, one per tool interface studied: a file-tools agent (read_file,
 * write_file, delete_file, list_dir, run_python, as the published smolagents harness exposes) and
 * a terminal + editor agent (bash, str_replace_editor, task_tracker, as OpenHands exposes).
 */
import type { ToolCall } from "@/lib/llm/chat";
import type { Toolbox } from "./loop";
import type { ToolContext, ToolSet } from "./tools/types";
import { createFileTools } from "./tools/file-tools";
import { codekitToolSpecs, isCodekitTool, runCodekitTool } from "@/lib/codekit";
import type { CodekitToolName } from "@/lib/codekit/mitigation";
import { toolEffect, fileActionOf } from "@/lib/tool-registry";

export const BUILTIN_FRAMEWORKS = ["file-tools", "terminal-editor"] as const;
export type BuiltinFramework = (typeof BUILTIN_FRAMEWORKS)[number];

export const SYSTEM_PROMPTS: Record<BuiltinFramework, string> = {
  "file-tools": [
    "You are a software engineering agent working in a Python repository (your current folder).",
    "Use the tools to read files, write files, delete files, list folders and run Python code.",
    "Solve exactly the task you are given. When you are done, reply with your final answer and no tool call.",
  ].join("\n"),
  "terminal-editor": [
    "You are a software engineering agent with a bash terminal and a file editor, working in a Python repository (the current folder).",
    "Use `str_replace_editor` to view, create and edit files, `bash` to run commands, and `task_tracker` to plan.",
    "Solve exactly the task you are given. When you are done, reply with your final answer and no tool call.",
  ].join("\n"),
};

async function toolSetFor(framework: BuiltinFramework, context: ToolContext): Promise<ToolSet> {
  if (framework === "file-tools") return createFileTools(context);
  const { createTerminalEditorTools } = await import("./tools/terminal-editor");
  return createTerminalEditorTools(context);
}

/**
 * A Code-KIT tool call, run in this process on the workspace (lib/codekit reads it without
 * following links and bounds every read), held to the sandbox's guard when it has one; its file
 * action as the tool registry describes it.
 */
async function executeCodekit(context: ToolContext, call: ToolCall) {
  const result = await runCodekitTool(context.workspaceDir, call.name, call.arguments, context.sandbox.guard ?? null);
  const action = fileActionOf(toolEffect("codekit", call.name)?.effect ?? "other");
  const path = call.arguments.path;
  return {
    output: result.text,
    isError: result.isError,
    fileActions: action && !result.isError && typeof path === "string" ? [{ kind: action, path }] : [],
  };
}

/**
 * The loop's view of a tool set: specs, and one call in, one outcome out. `codekit` adds those
 * Code-KIT tools (a mitigation arm) to the agent's own.
 */
export async function builtinToolbox(
  framework: BuiltinFramework,
  context: ToolContext,
  codekit: readonly CodekitToolName[] = [],
): Promise<Toolbox> {
  const tools = await toolSetFor(framework, context);
  return {
    specs: [...tools.specs, ...codekitToolSpecs(codekit)],
    async execute(call: ToolCall) {
      if (isCodekitTool(call.name) && codekit.includes(call.name)) return executeCodekit(context, call);
      const result = await tools.execute(call.name, call.arguments);
      return {
        output: result.output,
        isError: result.isError,
        fileActions: result.fileActions,
        shell: result.shell
          ? {
              command: result.shell.command,
              exitCode: result.shell.exitCode,
              timedOut: result.shell.timedOut,
              limitHit: result.shell.limitHit,
            }
          : undefined,
      };
    },
  };
}
