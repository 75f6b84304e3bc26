/**
 * The OpenHands tool set: `bash` (one command per call in the sandbox; like OpenHands' persistent
 * shell, the working directory carries over from one call to the next, other shell state does
 * not), `str_replace_editor` (str-replace-editor.ts) and `task_tracker` (a plan held in memory,
 * no file access).
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ToolSpec } from "@/lib/llm/chat";
import { EditorArgsSchema, STR_REPLACE_EDITOR_SPEC, createStrReplaceEditor } from "./str-replace-editor";
import { clip, messageOf, shellQuote, workspaceRootOf, type WorkspaceRoot } from "@/lib/workspace/paths";
import { DEFAULT_MAX_OUTPUT_CHARS, type ToolContext, type ToolResult, type ToolSet } from "./types";
import { allIssues } from "@/lib/errors/zod-issues";
import { guardShellNote } from "@/lib/workspace/guard";

const TASK_STATUSES = ["todo", "in_progress", "done"] as const;

export const TERMINAL_EDITOR_SPECS: ToolSpec[] = [
  {
    name: "bash",
    description:
      "Execute a bash command in the terminal, in the workspace. The working directory persists between calls; " +
      "each call is a new shell otherwise (no background jobs survive, no variables carry over). " +
      "Long-running commands are stopped at the time limit; avoid commands that print huge output.",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "The bash command to execute." },
        timeout: { type: "number", description: "Optional time limit in seconds (at most the run's limit)." },
      },
      required: ["command"],
    },
  },
  STR_REPLACE_EDITOR_SPEC,
  {
    name: "task_tracker",
    description:
      "Keep a structured plan of the task: `plan` replaces the task list, `view` shows it. Touches no files.",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", enum: ["view", "plan"] },
        task_list: {
          type: "array",
          description: "The full task list (`plan`).",
          items: {
            type: "object",
            properties: {
              id: { type: "string" },
              title: { type: "string" },
              status: { type: "string", enum: [...TASK_STATUSES] },
              notes: { type: "string" },
            },
            required: ["id", "title", "status"],
          },
        },
      },
      required: ["command"],
    },
  },
];

const BashArgs = z.object({ command: z.string(), timeout: z.coerce.number().positive().optional() });
const TaskSchema = z.object({
  id: z.coerce.string(),
  title: z.string(),
  status: z.enum(TASK_STATUSES),
  notes: z.string().optional(),
});
const TrackerArgs = z.object({ command: z.enum(["view", "plan"]), task_list: z.array(TaskSchema).optional() });
type Task = z.infer<typeof TaskSchema>;

const STATUS_ICONS: Record<Task["status"], string> = { todo: "⏳", in_progress: "🔄", done: "✅" };

const fail = (output: string): ToolResult => ({ output, isError: true, fileActions: [] });

function renderTasks(tasks: Task[]): string {
  if (tasks.length === 0) return 'No tasks found. Use the "plan" command to create tasks.';
  const lines = tasks.map(
    (t, i) => `${i + 1}. ${STATUS_ICONS[t.status]} ${t.title}${t.notes ? `\n   ${t.notes}` : ""}`,
  );
  return `# Task List\n\n${lines.join("\n")}`;
}

export function createTerminalEditorTools(context: ToolContext): ToolSet {
  const maxChars = context.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  let rootPromise: Promise<WorkspaceRoot> | null = null;
  const root = () => (rootPromise ??= workspaceRootOf(context.workspaceDir));
  const editor = createStrReplaceEditor(root, maxChars, context.sandbox.guard ?? null);
  let tasks: Task[] = [];
  let cwd: string | null = null;
  // Printed after the command to learn its final directory; random so no command can fake it.
  const marker = `__MS_CWD_${randomBytes(8).toString("hex")}__`;

  async function bash(args: z.infer<typeof BashArgs>): Promise<ToolResult> {
    // The real path: under bubblewrap a symlinked spelling (e.g. through /tmp) may not exist.
    const workspace = (await root()).real;
    const dir = cwd ?? workspace;
    const timeoutMs = Math.min(context.limits.timeoutMs, (args.timeout ?? Infinity) * 1000);
    // eval keeps a syntax error or an unclosed quote inside the command from swallowing the epilogue.
    const script = [
      `cd -- ${shellQuote(dir)} 2>/dev/null || cd -- ${shellQuote(workspace)}`,
      `eval ${shellQuote(args.command)}`,
      "__ms_status=$?",
      `printf '\\n${marker}%s\\n' "$PWD"`,
      "exit $__ms_status",
    ].join("\n");
    const result = await context.sandbox.run(script, { ...context.limits, timeoutMs });
    let output = result.output;
    const at = output.lastIndexOf(`\n${marker}`);
    if (at !== -1) {
      const end = output.indexOf("\n", at + 1 + marker.length);
      cwd = output.slice(at + 1 + marker.length, end === -1 ? undefined : end);
      output = output.slice(0, at) + (end === -1 ? "" : output.slice(end + 1));
    }
    const notes = [
      result.outputTruncated ? `[Output cut at ${context.limits.maxOutputBytes} bytes; the command was stopped.]` : "",
      result.limitHit ? `[The command was stopped at the run's ${result.limitHit.replace("_", " ")}.]` : "",
      context.sandbox.guard ? guardShellNote(output) : null,
      `[Current working directory: ${cwd ?? dir}]`,
      result.timedOut
        ? `[The command timed out after ${timeoutMs / 1000} seconds and was stopped.]`
        : `[The command completed with exit code ${result.exitCode ?? "none (killed by a signal)"}.]`,
    ].filter(Boolean);
    return {
      output: `${clip(output.trimEnd(), maxChars)}\n${notes.join("\n")}`,
      isError: result.timedOut || result.exitCode !== 0,
      fileActions: [],
      shell: { command: args.command, ...result, output },
    };
  }

  function taskTracker(args: z.infer<typeof TrackerArgs>): ToolResult {
    if (args.command === "view") return { output: renderTasks(tasks), isError: false, fileActions: [] };
    if (!args.task_list) return fail("Parameter `task_list` is required for command: plan.");
    tasks = args.task_list;
    return { output: `Task list has been updated with ${tasks.length} items.`, isError: false, fileActions: [] };
  }

  return {
    specs: TERMINAL_EDITOR_SPECS,
    async execute(name, args) {
      try {
        if (name === "bash") {
          const parsed = BashArgs.safeParse(args);
          return parsed.success
            ? await bash(parsed.data)
            : fail(`Invalid arguments for bash: ${allIssues(parsed.error, "arguments")}`);
        }
        if (name === "str_replace_editor") {
          const parsed = EditorArgsSchema.safeParse(args);
          if (!parsed.success)
            return fail(`Invalid arguments for str_replace_editor: ${allIssues(parsed.error, "arguments")}`);
          return await editor.execute(parsed.data);
        }
        if (name === "task_tracker") {
          const parsed = TrackerArgs.safeParse(args);
          return parsed.success
            ? taskTracker(parsed.data)
            : fail(`Invalid arguments for task_tracker: ${allIssues(parsed.error, "arguments")}`);
        }
        return fail(`Unknown tool ${name}; the tools are bash, str_replace_editor, task_tracker.`);
      } catch (error) {
        return fail(messageOf(error));
      }
    },
  };
}
