/**
 * mini-swe-agent trajectories (`<instance>.traj.json`, trajectory_format "mini-swe-agent-1"):
 * `{info{exit_status, submission, model_stats{instance_cost, api_calls}, mini_version,
 * config{model{model_name}, environment{cwd, image}}}, messages[{role, content, extra{response}}],
 * trajectory_format, instance_id}`. The format has no structured tool calls: an assistant message's
 * single ```bash block is its action, and the next user message is that action's result,
 * `<returncode>N</returncode>` then `<output>…</output>` (or the timeout text, or the final
 * submission when the command printed COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT). Each action is one
 * `shell` step; the assistant's text stays a message, so the THOUGHT is kept.
 */
import { z } from "zod";
import type { ExitReason } from "@/lib/bundle/schema";
import { submissionMarkers } from "@/lib/tool-registry";
import type { ForeignFile, ForeignFormat, ForeignRun } from "../types";
import { providerOf } from "./openhands-events";
import {
  benchmarkFromNames,
  contentProbe,
  count,
  isoTime,
  numberSteps,
  parseJsonDocument,
  parseShape,
  stepTimes,
  textOf,
  textOrNull,
  type UnnumberedStep,
} from "./json-lines";

const MessageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  extra: z
    .looseObject({
      timestamp: z.number().nullish(),
      response: z
        .looseObject({
          model: z.string().nullish(),
          created: z.number().nullish(),
          usage: z
            .looseObject({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
            .nullish(),
        })
        .nullish(),
    })
    .nullish(),
});
type Message = z.infer<typeof MessageSchema>;

const TrajectorySchema = z.looseObject({
  info: z
    .looseObject({
      exit_status: z.string().nullish(),
      submission: z.string().nullish(),
      mini_version: z.string().nullish(),
      model_stats: z.looseObject({ instance_cost: z.number().nullish(), api_calls: z.number().nullish() }).nullish(),
      config: z
        .looseObject({
          model: z.looseObject({ model_name: z.string().nullish() }).nullish(),
          environment: z.looseObject({ cwd: z.string().nullish(), image: z.string().nullish() }).nullish(),
          agent_type: z.string().nullish(),
        })
        .nullish(),
    })
    .nullish(),
  messages: z.array(MessageSchema),
  trajectory_format: z.string().nullish(),
  instance_id: z.string().nullish(),
});

/** mini-swe-agent's own rule: exactly one ```bash block is an action; none or several is a format error. */
const ACTION_BLOCK = /```bash\s*\n([\s\S]*?)\n```/g;
/** The line that submits (the tool registry's `submissionMarkers`): its result is the submission, not a shell result. */
const SUBMIT_MARKERS = submissionMarkers("mini-swe-agent");
/** SWE-bench images of the harness put the repository here. */
const SWE_BENCH_ROOT = "/testbed";

export const miniSweAgentTraj: ForeignFormat = {
  id: "mini-swe-agent-traj",
  label: "mini-swe-agent trajectory (.traj.json)",
  readerVersion: 1,
  detect(file: ForeignFile): boolean {
    const probe = contentProbe(file);
    const format = /"trajectory_format"\s*:\s*"mini-swe-agent/;
    return (
      probe.firstChar === "{" &&
      (format.test(probe.head) || format.test(probe.tail) || /"mini_version"\s*:/.test(probe.head)) &&
      /"messages"\s*:/.test(probe.head + probe.tail)
    );
  },
  read(file: ForeignFile): ForeignRun[] {
    const trajectory = parseShape(TrajectorySchema, parseJsonDocument(file), file.name, null);
    const info = trajectory.info;
    const config = info?.config;
    const steps = stepsOf(trajectory.messages);
    const model =
      config?.model?.model_name ??
      trajectory.messages.find((m) => m.extra?.response?.model)?.extra?.response?.model ??
      null;
    const benchmark = benchmarkFromNames([config?.environment?.image, config?.agent_type, file.name]);
    const exitReason = exitReasonOf(info?.exit_status ?? null);
    const assistant = trajectory.messages.filter((m) => m.role === "assistant");
    return [
      {
        index: 0,
        formatVersion: trajectory.trajectory_format ?? "mini-swe-agent-1",
        task: {
          benchmark,
          instanceId: trajectory.instance_id ?? instanceFromName(file.name),
          prompt: textOrNull(trajectory.messages.find((m) => m.role === "user")?.content),
        },
        agent: {
          framework: "mini-swe-agent",
          frameworkVersion: info?.mini_version ?? null,
          model,
          provider: providerOf(model),
        },
        steps: numberSteps(steps),
        hasTrajectory: true,
        patch: info?.submission ? info.submission : null,
        workspaceRoot: config?.environment?.cwd || (benchmark?.startsWith("swe-bench") ? SWE_BENCH_ROOT : null),
        status: exitReason === "finished" ? "completed" : "failed",
        exitReason,
        error: exitReason === "finished" ? null : (info?.exit_status ?? null),
        ...stepTimes(steps),
        usage: {
          modelCalls: info?.model_stats?.api_calls ?? assistant.length,
          inputTokens: assistant.reduce((sum, m) => sum + count(m.extra?.response?.usage?.prompt_tokens), 0),
          outputTokens: assistant.reduce((sum, m) => sum + count(m.extra?.response?.usage?.completion_tokens), 0),
          costUsd: info?.model_stats?.instance_cost ?? null,
        },
      },
    ];
  },
};

/** mini-swe-agent's exit statuses are its exception names: Submitted, LimitsExceeded, a timeout, or an error. */
export function exitReasonOf(status: string | null): ExitReason {
  if (status === null || status === "" || status === "Submitted") return "finished";
  if (status === "LimitsExceeded") return "step_limit";
  if (/timeout/i.test(status)) return "timeout";
  return "error";
}

function stepsOf(messages: readonly Message[]): UnnumberedStep[] {
  const steps: UnnumberedStep[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const text = textOf(message.content);
    const timestamp = isoTime(message.extra?.timestamp ?? message.extra?.response?.created);
    const usage = message.extra?.response?.usage;
    steps.push({
      kind: "message",
      role: message.role === "system" ? "system" : message.role === "assistant" ? "assistant" : "user",
      text,
      ...(timestamp === undefined ? {} : { timestamp }),
      ...(usage ? { inputTokens: count(usage.prompt_tokens), outputTokens: count(usage.completion_tokens) } : {}),
    });
    if (message.role !== "assistant") continue;
    const blocks = [...text.matchAll(ACTION_BLOCK)];
    const command = blocks.length === 1 ? blocks[0]![1]!.trim() : null;
    const next = messages[i + 1];
    if (command === null || next === undefined || next.role === "assistant") continue;
    const result = actionResult(command, textOf(next.content));
    if (result === null) continue; // the next message is a format error or a note, kept as a message
    steps.push({ kind: "shell", command, ...result, ...(timestamp === undefined ? {} : { timestamp }) });
    i++;
  }
  return steps;
}

/** The shell result the user message after an action holds, or null when it holds none. */
function actionResult(
  command: string,
  text: string,
): { exitCode: number | null; output: string; timedOut: boolean } | null {
  const returncode = /^\s*<returncode>(-?\d+)<\/returncode>\s*/.exec(text);
  if (returncode) {
    const rest = text.slice(returncode[0].length);
    const output = /^<output>\n?([\s\S]*?)\n?<\/output>\s*$/.exec(rest);
    return { exitCode: Number(returncode[1]), output: output ? output[1]! : rest, timedOut: false };
  }
  if (/timed out and has been killed/.test(text)) {
    const output = /<output>\n?([\s\S]*?)\n?<\/output>/.exec(text);
    return { exitCode: null, output: output ? output[1]! : text, timedOut: true };
  }
  if (SUBMIT_MARKERS.some((marker) => command.includes(marker)))
    return { exitCode: null, output: text, timedOut: false };
  return null;
}

/** `django__django-16255.traj.json` → `django__django-16255`. */
function instanceFromName(name: string): string | null {
  const match = /^(.+?)\.traj(\.json)?$/.exec(name.split("/").pop() ?? "");
  return match?.[1] ?? null;
}
