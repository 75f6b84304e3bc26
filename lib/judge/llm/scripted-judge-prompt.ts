/**
 * The scripted judge's reading of a judge prompt (scripted-judge-responder.ts): the `<tag>` data
 * blocks, the prompt version, and the run back as far as the prompt shows it: the steps of the
 * `<trajectory>` block (in full or condensed, render-step.ts and condense-steps.ts), the contract,
 * the task, the outcome's workspace root and captured evidence, and the changed paths, as a rule
 * judge's input.
 */
import { InstanceSubtaskSchema } from "@/lib/benchmark/subtasks";
import {
  ExitReasonSchema,
  TrajectoryStepSchema,
  type CapturedEvidence,
  type TrajectoryStep,
} from "@/lib/bundle/schema";
import { DESCRIBED_ARGUMENT_NAMES } from "@/lib/tool-registry";
import { SafeRelativePathSchema } from "@/lib/util/relative-path";
import { evaluationInputOfCase, RuleCaseSchema } from "../rule-cases";
import type { EvaluationInput } from "../schema";
import { INFERRED_ROOT } from "./render-run";

export function block(prompt: string, tag: string): string {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?>\\n([\\s\\S]*?)\\n</${tag}>`).exec(prompt);
  return match?.[1] ?? "";
}

/** The metric and the prompt version's number of a judge prompt, from its `# Metric: <id> (prompt <id>.v<n>)` line. */
export function metricOf(prompt: string): { metric: string; version: number } {
  const match = /^# Metric: (\w+)(?: \(prompt \w+\.v(\d+)\))?/m.exec(prompt);
  return { metric: match?.[1] ?? "", version: Number(match?.[2] ?? 1) };
}

export const stepId = (line: string) => /^\[([^\]\s]+)\]/.exec(line)?.[1] ?? null;
export const stepLines = (trajectory: string) => trajectory.split("\n").filter((l) => stepId(l) !== null);
export const listAfter = (text: string, label: string) => {
  const value = new RegExp(`^${label}: (.*)$`, "m").exec(text)?.[1] ?? "(none)";
  return value === "(none)" ? [] : value.split(", ").map((p) => p.trim());
};

/** A step's duration as render-step.ts shows it after the kind: ` (850 ms)`, ` (12.3 s)`. */
const TOOK = String.raw`(?: \((\d+(?:\.\d+)?) (m?s)\))?`;
const SHELL_STEP = new RegExp(
  String.raw`^\[([^\]\s]+)\] shell${TOOK} \$ ([\s\S]*?) → exit (-?\d+|\?)( \(timed out\))?`,
);
const FULL_CALL = new RegExp(String.raw`^\[([^\]\s]+)\] tool_call (\S+)${TOOK}(?: \(call ([^)]*)\))?: ([\s\S]*)$`);
const CONDENSED_CALL = new RegExp(String.raw`^\[([^\]\s]+)\] tool_call (\S+)${TOOK}(.*?)(?: ⇒ \[[\s\S]*)?$`);
const FILE_STEP = new RegExp(String.raw`^\[([^\]\s]+)\] (file_read|file_write|file_delete)${TOOK} (.+)$`);
const OBSERVATION = new RegExp(
  String.raw`^\[([^\]\s]+)\] observation${TOOK}(?: \(call ([^)]*)\))?( ERROR)?(?:: ([\s\S]*))?$`,
);
/** An observation folded into its call's condensed line, after `⇒`. */
const FOLDED = /⇒ \[([^\]\s]+)\]( ERROR)?(?::\s?(.*))?/;
const REPEATED = /^\[\.\.\. the same step repeated ([\d,]+) more times? up to \[([^\]]+)\]/;

/** The trajectory's steps as texts: a step's first line and the lines that continue it (outputs, long commands). */
function stepTexts(trajectory: string, expandRepeats: boolean): string[] {
  const texts: string[] = [];
  for (const line of trajectory.split("\n")) {
    const repeated = expandRepeats ? REPEATED.exec(line) : null;
    if (repeated && texts.length > 0) {
      // A collapsed repeat is the line before, again: its ids made unique, the last one kept.
      const last = texts[texts.length - 1]!;
      const more = Number(repeated[1]!.replace(/,/g, ""));
      for (let k = 1; k <= more; k++) texts.push(last.replace(/\[([^\]\s]+)\]/g, `[$1~${k}]`));
    } else if (stepId(line) !== null) texts.push(line);
    else if (texts.length > 0 && !line.startsWith("[... ")) texts[texts.length - 1] += `\n${line}`;
  }
  return texts;
}

/** Undoes render-step.ts's `oneLine` (newlines shown as ` ⏎ `). */
const unfold = (text: string) => text.replace(/ ⏎ /g, "\n");

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The `key=value` arguments of a condensed tool call: the described argument names come first
 * (render-step.ts `summarizeArguments`), so a value ends at the next described name, and the last
 * one at the first other `name=` (the rest, shown after them).
 */
function condensedArguments(text: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const names = [...text.matchAll(/(?:^| )([A-Za-z_]\w*)=(?!=)/g)];
  const keys = names.filter((m, i) => i === 0 || DESCRIBED_ARGUMENT_NAMES.includes(m[1]!));
  const lastDescribed = keys.at(-1);
  const rest = names.find((m) => lastDescribed && m.index > lastDescribed.index && !keys.includes(m));
  keys.forEach((m, i) => {
    const end = keys[i + 1]?.index ?? rest?.index ?? text.length;
    const value = unfold(text.slice(m.index + m[0].length, end));
    args[m[1]!] = /^[[{]/.test(value) ? jsonOrText(value) : value;
  });
  return args;
}

/** One step's text back as steps of our trajectory model: a command, tool call or file step (with its folded observation). */
function stepsOfText(text: string, observations: boolean): TrajectoryStep[] {
  const shell = SHELL_STEP.exec(text);
  const full = shell ? null : FULL_CALL.exec(text);
  const call = shell || full ? null : CONDENSED_CALL.exec(text);
  const file = shell || full || call ? null : FILE_STEP.exec(text);
  const observation = observations && !shell && !full && !call && !file ? OBSERVATION.exec(text) : null;
  let step: TrajectoryStep | null = null;
  if (shell) {
    const exitCode = shell[5] === "?" ? null : Number(shell[5]);
    const timedOut = shell[6] !== undefined;
    step = { id: shell[1]!, kind: "shell", command: unfold(shell[4]!), exitCode, output: "", timedOut };
  } else if (full) {
    const args = jsonOrText(full[6]!.replace(/\n {4}/g, "\n"));
    step = {
      id: full[1]!,
      kind: "tool_call",
      tool: full[2]!,
      arguments: args,
      ...(full[5] ? { callId: full[5] } : {}),
    };
  } else if (call) {
    step = { id: call[1]!, kind: "tool_call", tool: call[2]!, arguments: condensedArguments(call[5]!.trim()) };
  } else if (file) {
    step = { id: file[1]!, kind: file[2] as "file_read" | "file_write" | "file_delete", path: file[5]!.trim() };
  } else if (observation) {
    const callId = observation[4] ? { callId: observation[4] } : {};
    const isError = observation[5] !== undefined;
    step = { id: observation[1]!, kind: "observation", text: observation[6] ?? "", isError, ...callId };
  }
  if (step === null) return [];
  const folded = observations && (shell || call) ? FOLDED.exec(text) : null;
  const answer: TrajectoryStep[] = folded
    ? [{ id: folded[1]!, kind: "observation", text: folded[3] ?? "", isError: folded[2] !== undefined }]
    : [];
  return [step, ...answer];
}

/**
 * The steps the trajectory block shows that run commands, call tools or touch files; with
 * `observations`, the observations answering them too (for failed tool calls), and with
 * `repeats`, each collapsed repeat as the step again.
 */
export function stepsOfTrajectory(
  trajectory: string,
  options: { observations?: boolean; repeats?: boolean } = {},
): TrajectoryStep[] {
  const steps = stepTexts(trajectory, options.repeats ?? false).flatMap((text) =>
    stepsOfText(text, options.observations ?? false).filter((s) => TrajectoryStepSchema.safeParse(s).success),
  );
  return pairShellTwins(steps);
}

/**
 * A runner or reader records a shell tool call and the shell step it ran under one call id, which
 * the rules count once; the prompt does not show a shell step's call id, so a shell step right
 * after a tool call whose argument is its command gets the call's id back.
 */
function pairShellTwins(steps: TrajectoryStep[]): TrajectoryStep[] {
  return steps.map((step, i) => {
    if (step.kind !== "shell") return step;
    const call = steps.slice(0, i).findLast((s) => s.kind !== "observation");
    if (call?.kind !== "tool_call" || call.arguments === null || typeof call.arguments !== "object") return step;
    const named = Object.values(call.arguments as Record<string, unknown>).includes(step.command);
    if (!named) return step;
    const callId = call.callId ?? call.id;
    call.callId = callId;
    return { ...step, callId };
  });
}

/** Each step's duration in ms, by id, where the trajectory block shows one. */
export function stepDurations(trajectory: string): Map<string, number> {
  const durations = new Map<string, number>();
  for (const line of trajectory.split("\n")) {
    const match = /^\[([^\]\s]+)\] \S+(?: \S+)? \((\d+(?:\.\d+)?) (m?s)\)/.exec(line);
    if (match) durations.set(match[1]!, Number(match[2]) * (match[3] === "s" ? 1000 : 1));
  }
  return durations;
}

/** `name: value` of a `<run_outcome>` line, null when absent or shown as not recorded (`(not recorded)`). */
export function outcomeField(outcome: string, name: string): string | null {
  const value = new RegExp(`^${name}: (.*)$`, "m").exec(outcome)?.[1]?.trim() ?? "";
  return value === "" || value.startsWith("(") ? null : value;
}

/** The workspace root `<run_outcome>` gives: recorded, inferred from the agent's absolute paths (render-run.ts), or none. */
export function workspaceRootOf(outcome: string): { root: string | null; inferred: boolean } {
  const value = outcomeField(outcome, "workspace root");
  if (value === null) return { root: null, inferred: false };
  const inferred = value.endsWith(` ${INFERRED_ROOT}`);
  return { root: inferred ? value.slice(0, -INFERRED_ROOT.length - 1) : value, inferred };
}

/** What the record captured, as `<run_outcome>`'s `captured:` line says (render-run.ts `renderCaptured`). */
export function capturedOf(outcome: string): CapturedEvidence | undefined {
  const line = /^captured: (.*)$/m.exec(outcome)?.[1];
  if (!line) return undefined;
  const workspace = /workspace files: full before\/after/.test(line)
    ? "snapshot"
    : /workspace files: a repo diff only/.test(line)
      ? "patch"
      : "none";
  return {
    trajectory: !line.startsWith("no trajectory"),
    workspace,
    environment: !/no environment snapshots/.test(line),
  };
}

/** Where the contract came from, as render-run.ts words it (`origin: none: ...`); absent for our own tasks. */
function originOf(contract: string): { origin?: "contract_file" | "gold_patch" | "none" } {
  const words = /^origin: (\S+)/m.exec(contract)?.[1] ?? "";
  if (words.startsWith("none")) return { origin: "none" };
  if (words === "a" && /^origin: a gold patch/m.test(contract)) return { origin: "gold_patch" };
  if (words === "a") return { origin: "contract_file" };
  return {};
}

/**
 * The rule judge's input as far as the prompt shows it: task, contract, outcome, the steps, the
 * changed paths. An inferred workspace root is passed on only with `inferredRoot` (File Read
 * infers it as the prompt does; the environment rules keep an unrecorded root unknown).
 */
export function ruleInputOf(
  prompt: string,
  options: { inferredRoot: boolean; steps?: TrajectoryStep[] },
): EvaluationInput {
  const outcome = block(prompt, "run_outcome");
  const contract = block(prompt, "boundary_contract");
  const truth = block(prompt, "ground_truth");
  const subtask = InstanceSubtaskSchema.safeParse(/<task subtask="([^"]*)">/.exec(prompt)?.[1]);
  const originalFile = SafeRelativePathSchema.safeParse(outcomeField(truth, "original file"));
  const exitReason = ExitReasonSchema.safeParse(outcomeField(outcome, "exit reason"));
  const changes = [...block(prompt, "changed_files").matchAll(/^(created|updated|deleted) (\S+)/gm)]
    .map((m) => ({ kind: m[1] as "created" | "updated" | "deleted", path: m[2]! }))
    .filter((c) => SafeRelativePathSchema.safeParse(c.path).success);
  const root = workspaceRootOf(outcome);
  const captured = capturedOf(outcome);
  const ruleCase = RuleCaseSchema.parse({
    ...(subtask.success ? { subtask: subtask.data } : {}),
    contract: {
      mustRead: listAfter(contract, "must read"),
      mayChange: listAfter(contract, "may change"),
      expectedCreate: listAfter(contract, "expected to create"),
      expectedDelete: listAfter(contract, "expected to delete"),
      ...originOf(contract),
    },
    groundTruth: {
      originalFile: originalFile.success ? originalFile.data : null,
      targetQualifiedName: outcomeField(truth, "target function"),
    },
    steps: options.steps ?? stepsOfTrajectory(block(prompt, "trajectory")),
    changes,
    framework: outcomeField(outcome, "agent framework"),
    workspaceRoot: root.inferred && !options.inferredRoot ? null : root.root,
    ...(exitReason.success ? { exitReason: exitReason.data } : {}),
    // What the record holds, for the rules that depend on it (File Read without a contract and without a diff).
    ...(captured ? { evidence: { ...captured, environment: false } } : {}),
  });
  return evaluationInputOfCase(ruleCase, "scripted");
}
