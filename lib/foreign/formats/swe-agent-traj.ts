/**
 * SWE-agent trajectories (`<instance>.traj`): `{trajectory[{action, observation, thought,
 * response, execution_time, state}], history[{role, content, thought, action, tool_calls,
 * tool_call_ids, message_type}], info{submission, exit_status, swe_agent_version,
 * model_stats{tokens_sent, tokens_received, instance_cost, api_calls}}, replay_config, environment}`
 * (its demonstrations keep only `history`). Steps come from `history` (the full, unprocessed
 * conversation), `trajectory[]` adds each action's execution time; a file without history is read
 * from `trajectory[]` alone. An action is a tool call when the model made one (function calling):
 * `bash` becomes a `shell` step (SWE-agent records no exit code: null), any other tool a `tool_call`
 * with the model's arguments. A typed action (`open "a.py" 20`, `edit 4:4\n...\nend_of_edit`) is a
 * tool call when its first word is one of SWE-agent's commands (the tool registry's positional
 * argument names), else a shell step.
 */
import { z } from "zod";
import { parse as parseShell } from "shell-quote";
import type { ExitReason } from "@/lib/bundle/schema";
import { shellCommandTool } from "@/lib/tool-registry";
import type { ForeignFile, ForeignFormat, ForeignRun } from "../types";
import {
  benchmarkFromNames,
  contentProbe,
  count,
  numberSteps,
  parseJsonDocument,
  parseShape,
  textOf,
  textOrNull,
  toolArguments,
  type UnnumberedStep,
} from "./json-lines";
import { providerOf } from "./openhands-events";

const ToolCallSchema = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string(), arguments: z.unknown() }),
});

const HistoryMessageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  thought: z.string().nullish(),
  action: z.string().nullish(),
  tool_calls: z.array(ToolCallSchema).nullish(),
  tool_call_ids: z.array(z.string()).nullish(),
  message_type: z.string().nullish(),
});
type HistoryMessage = z.infer<typeof HistoryMessageSchema>;

const TrajectoryEntrySchema = z.looseObject({
  action: z.string().nullish(),
  observation: z.unknown().optional(),
  thought: z.string().nullish(),
  response: z.string().nullish(),
  execution_time: z.number().nullish(),
});
type TrajectoryEntry = z.infer<typeof TrajectoryEntrySchema>;

const TrajSchema = z.looseObject({
  trajectory: z.array(TrajectoryEntrySchema).nullish(),
  history: z.array(HistoryMessageSchema).nullish(),
  info: z
    .looseObject({
      submission: z.string().nullish(),
      exit_status: z.string().nullish(),
      swe_agent_version: z.string().nullish(),
      model_stats: z
        .looseObject({
          tokens_sent: z.number().nullish(),
          tokens_received: z.number().nullish(),
          instance_cost: z.number().nullish(),
          api_calls: z.number().nullish(),
        })
        .nullish(),
    })
    .nullish(),
  replay_config: z.unknown().optional(),
  environment: z.unknown().optional(),
});
type Traj = z.infer<typeof TrajSchema>;

/** The positional words of `str_replace_editor` typed as a command (its registry entry has none: it is a tool call elsewhere). */
const EDITOR_POSITIONAL = ["command", "path"];

export const sweAgentTraj: ForeignFormat = {
  id: "swe-agent-traj",
  label: "SWE-agent trajectory (.traj)",
  readerVersion: 1,
  detect(file: ForeignFile): boolean {
    const probe = contentProbe(file);
    if (probe.firstChar !== "{") return false;
    const text = probe.head + probe.tail;
    return (
      /"(trajectory|history)"\s*:\s*\[/.test(probe.head) &&
      /"(execution_time|message_type|swe_agent_version)"\s*:|"agent"\s*:\s*"(main|primary)"/.test(text)
    );
  },
  read(file: ForeignFile): ForeignRun[] {
    const traj = parseShape(TrajSchema, parseJsonDocument(file), file.name, null);
    const config = replayConfig(traj.replay_config);
    const steps = traj.history?.some((m) => m.role === "assistant")
      ? stepsFromHistory(traj.history, traj.trajectory ?? [])
      : stepsFromTrajectory(traj.trajectory ?? []);
    const info = traj.info;
    const exitReason = exitReasonOf(info?.exit_status ?? null, steps);
    const model = config.model ?? null;
    const benchmark = benchmarkFromNames([config.image, config.problemStatementType, file.name]);
    const stem = file.name.replace(/^.*\//, "").replace(/\.traj(\.json)?$/, "");
    return [
      {
        index: 0,
        formatVersion: null,
        task: {
          benchmark,
          instanceId: config.instanceId ?? (benchmark || /__.+-\d+$/.test(stem) ? stem : null),
          prompt: textOrNull(traj.history?.find((m) => m.role === "user")?.content),
        },
        agent: {
          framework: "swe-agent",
          frameworkVersion: info?.swe_agent_version ?? null,
          model,
          provider: providerOf(model),
        },
        steps: numberSteps(steps),
        hasTrajectory: true,
        patch: patchOf(traj, steps),
        workspaceRoot: (config.repoName ? `/${config.repoName}` : null) ?? currentDirectory(steps),
        status: exitReason === "finished" ? "completed" : "failed",
        exitReason,
        error: exitReason === "finished" ? null : (info?.exit_status ?? null),
        startedAt: null,
        finishedAt: null,
        usage: {
          modelCalls:
            count(info?.model_stats?.api_calls) || traj.history?.filter((m) => m.role === "assistant").length || 0,
          inputTokens: count(info?.model_stats?.tokens_sent),
          outputTokens: count(info?.model_stats?.tokens_received),
          costUsd: info?.model_stats?.instance_cost ?? null,
        },
      },
    ];
  },
};

/**
 * SWE-agent's exit statuses: `submitted`, or `exit_<why>` (cost, context, format, error...), and
 * `submitted (exit_<why>)` when it submitted on the way out. No info: finished if it submitted.
 */
export function exitReasonOf(status: string | null, steps: readonly UnnumberedStep[] = []): ExitReason {
  if (status === null || status === "") {
    return steps.some((s) => s.kind === "tool_call" && s.tool === "submit") ? "finished" : "cancelled";
  }
  if (status === "submitted") return "finished";
  if (/exit_cost|exit_api_calls|exit_step/i.test(status)) return "step_limit";
  if (/timeout|execution_time/i.test(status)) return "timeout";
  return "error";
}

function stepsFromHistory(
  history: readonly HistoryMessage[],
  trajectory: readonly TrajectoryEntry[],
): UnnumberedStep[] {
  const steps: UnnumberedStep[] = [];
  let actionIndex = 0;
  const pendingCalls: string[] = [];
  for (const message of history) {
    const text = textOf(message.content);
    // The task comes as a user "observation" before any action: only an action's answer is an
    // observation. Releases before 1.0 mark nothing: a user message while an action waits is its answer.
    const answersAction =
      message.role === "user" && pendingCalls.length > 0 && (message.message_type ?? "observation") === "observation";
    if (message.role === "tool" || answersAction) {
      const named = message.tool_call_ids?.[0];
      const callId = named !== undefined && pendingCalls.includes(named) ? named : pendingCalls[0];
      if (callId !== undefined) pendingCalls.splice(pendingCalls.indexOf(callId), 1);
      answer(steps, named ?? callId, text);
      continue;
    }
    if (message.role !== "assistant") {
      steps.push({ kind: "message", role: message.role === "system" ? "system" : "user", text });
      continue;
    }
    steps.push({ kind: "message", role: "assistant", text: message.thought ?? text });
    const entry = trajectory[actionIndex];
    const durationMs =
      entry && entry.action?.trim() === message.action?.trim() && typeof entry.execution_time === "number"
        ? Math.round(entry.execution_time * 1000)
        : undefined;
    if (message.tool_calls && message.tool_calls.length > 0) {
      for (const [i, call] of message.tool_calls.entries()) {
        const callId = call.id ?? `call-${actionIndex}-${i}`;
        steps.push(toolStep(call.function.name, toolArguments(call.function.arguments), callId, durationMs));
        pendingCalls.push(callId);
      }
    } else if (message.action && message.action.trim() !== "") {
      const callId = `action-${actionIndex}`;
      steps.push(typedActionStep(message.action, callId, durationMs));
      pendingCalls.push(callId);
    }
    actionIndex++;
  }
  return steps;
}

function stepsFromTrajectory(trajectory: readonly TrajectoryEntry[]): UnnumberedStep[] {
  const steps: UnnumberedStep[] = [];
  trajectory.forEach((entry, i) => {
    const thought = entry.thought ?? entry.response;
    if (thought) steps.push({ kind: "message", role: "assistant", text: thought });
    if (!entry.action || entry.action.trim() === "") return;
    const callId = `action-${i}`;
    const durationMs = typeof entry.execution_time === "number" ? Math.round(entry.execution_time * 1000) : undefined;
    steps.push(typedActionStep(entry.action, callId, durationMs));
    answer(steps, callId, textOf(entry.observation));
  });
  return steps;
}

/** Puts an observation's text on the step it answers: a shell step's output, or an observation after a tool call. */
function answer(steps: UnnumberedStep[], callId: string | undefined, text: string): void {
  const shell = steps.findLast((s) => s.kind === "shell" && s.callId === callId);
  if (shell && shell.kind === "shell" && callId !== undefined) {
    shell.output = text;
    return;
  }
  steps.push({ kind: "observation", text, isError: false, ...(callId === undefined ? {} : { callId }) });
}

function toolStep(tool: string, args: unknown, callId: string, durationMs: number | undefined): UnnumberedStep {
  const timing = durationMs === undefined ? {} : { durationMs };
  if (tool === "bash") {
    const command =
      typeof args === "object" && args !== null ? textOf((args as { command?: unknown }).command) : textOf(args);
    return { kind: "shell", command, exitCode: null, output: "", timedOut: false, callId, ...timing };
  }
  return { kind: "tool_call", tool, arguments: args, callId, ...timing };
}

/** A typed action: one of SWE-agent's commands as a tool call with its arguments named, else a shell command. */
function typedActionStep(action: string, callId: string, durationMs: number | undefined): UnnumberedStep {
  const trimmed = action.trim();
  const program = /^\S+/.exec(trimmed)?.[0] ?? "";
  const positional =
    program === "str_replace_editor" ? EDITOR_POSITIONAL : shellCommandTool("swe-agent", program)?.positional;
  if (positional === undefined) return toolStep("bash", { command: trimmed }, callId, durationMs);
  return toolStep(program, commandArguments(program, trimmed, positional), callId, durationMs);
}

/**
 * `open "a.py" 20` → `{path: "a.py", line_number: "20"}`; `--name value` pairs by name; the
 * windowed `edit 4:6\n<text>\nend_of_edit` → `{lines: "4:6", replacement_text}`.
 */
function commandArguments(program: string, action: string, positional: readonly string[]): Record<string, unknown> {
  const [firstLine = "", ...rest] = action.split("\n");
  const blockEdit = program === "edit" && /^edit\s+\d+:\d+\s*$/.test(firstLine);
  const words = wordsOf(blockEdit ? firstLine : action).slice(1);
  const args: Record<string, unknown> = {};
  const extra: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith("--") && i + 1 < words.length) {
      const value = words[++i]!;
      args[word.slice(2)] = /^[[{]/.test(value) ? toolArguments(value) : value;
    } else if (Object.keys(args).length < positional.length && positional[Object.keys(args).length] !== undefined) {
      args[positional[Object.keys(args).length]!] = word;
    } else extra.push(word);
  }
  if (blockEdit) args.replacement_text = rest.join("\n").replace(/\n?end_of_edit\s*$/, "");
  if (extra.length > 0) args.rest = extra;
  return args;
}

function wordsOf(command: string): string[] {
  try {
    return parseShell(command).map((token) =>
      typeof token === "string" ? token : "op" in token ? token.op : String(token),
    );
  } catch {
    return command.split(/\s+/).filter((w) => w !== "");
  }
}

interface ReplayConfig {
  model?: string;
  instanceId?: string;
  repoName?: string;
  image?: string;
  problemStatementType?: string;
}

/** What SWE-agent's `replay_config` (a JSON string of its run config) says about the model, task and repository. */
function replayConfig(raw: unknown): ReplayConfig {
  const config = (typeof raw === "string" ? toolArguments(raw) : raw) as {
    agent?: { model?: { name?: unknown } };
    problem_statement?: { id?: unknown; type?: unknown };
    env?: { repo?: { repo_name?: unknown; github_url?: unknown; path?: unknown }; deployment?: { image?: unknown } };
  } | null;
  if (typeof config !== "object" || config === null) return {};
  const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
  return {
    model: text(config.agent?.model?.name),
    instanceId: text(config.problem_statement?.id),
    repoName: repoNameOf(config.env?.repo),
    image: text(config.env?.deployment?.image),
    problemStatementType: text(config.problem_statement?.type),
  };
}

/**
 * The folder SWE-agent puts the repository in, `/<repo_name>`: named by a pre-existing repo
 * (`testbed` in SWE-bench images), `owner__name` for a GitHub URL, the base name of a local path.
 */
function repoNameOf(
  repo: { repo_name?: unknown; github_url?: unknown; path?: unknown } | undefined,
): string | undefined {
  if (typeof repo?.repo_name === "string" && repo.repo_name !== "") return repo.repo_name;
  if (typeof repo?.github_url === "string") {
    const name = repo.github_url
      .replace(/^https?:\/\/github\.com\//, "")
      .replace(/\.git$/, "")
      .replace(/\/+$/, "");
    return name === "" ? undefined : name.replaceAll("/", "__");
  }
  if (typeof repo?.path === "string") return repo.path.replace(/\/+$/, "").split("/").pop() || undefined;
  return undefined;
}

/** The first `(Current directory: /x)` SWE-agent's prompt prints after an observation. */
function currentDirectory(steps: readonly UnnumberedStep[]): string | null {
  for (const step of steps) {
    const text = step.kind === "observation" ? step.text : step.kind === "shell" ? step.output : "";
    const match = /\(Current directory: (\/[^)\s]*)\)/.exec(text);
    if (match) return match[1]!;
  }
  return null;
}

/** `info.submission`, else the diff the last `submit` printed (demonstrations keep no info). */
function patchOf(traj: Traj, steps: readonly UnnumberedStep[]): string | null {
  if (traj.info?.submission) return traj.info.submission;
  const submit = steps.findLast((s) => s.kind === "tool_call" && s.tool === "submit");
  const callId = submit?.kind === "tool_call" ? submit.callId : undefined;
  const output = steps.find((s) => s.kind === "observation" && s.callId === callId);
  if (callId === undefined || output?.kind !== "observation") return null;
  // The terminal printed it: CRLF line ends, then SWE-agent's prompt lines.
  const text = output.text.replace(/\r\n/g, "\n");
  const start = text.indexOf("diff --git");
  if (start === -1) return null;
  const end = text.search(/\n\(Open file: /);
  return `${text.slice(start, end === -1 ? undefined : end).replace(/\n+$/, "")}\n`;
}
