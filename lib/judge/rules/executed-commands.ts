/**
 * The commands a run executed, with what they printed and whether they succeeded, whatever the
 * agent's tools: shell steps, and shell or Python tool calls (the tool registry says which) whose
 * result is the observation with the same call id. What the task checks' execution and testing
 * checks read (lib/task-check), and the tests the LLM judge's ledger lists.
 */
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { toolEffect } from "@/lib/tool-registry";
import { argumentsOf } from "./tool-actions";

/** A command that runs tests: a test runner, or a test file run directly. */
export const TEST_RUNNER = /\b(pytest|py\.test|unittest|nose2?|tox)\b|\btest\w*\.py\b/;
/** Test runners' words for a run that found no test: it passed, but tested nothing. */
export const RAN_NO_TESTS = /\bRan 0 tests\b|\bno tests ran\b|\bcollected 0 items\b|\bNO TESTS RAN\b/i;

export interface ExecutedCommand {
  stepId: string;
  /** The command line, or the Python code a Python tool ran. */
  command: string;
  output: string;
  /** false: a non-zero exit, a timeout or an error result; null: the log does not say. */
  succeeded: boolean | null;
}

/** The command or code a tool call runs, when the registry knows it as a shell or Python tool. */
function callCommand(step: Extract<TrajectoryStep, { kind: "tool_call" }>, framework: string | null): string | null {
  const description = toolEffect(framework, step.tool);
  if (!description || (description.effect !== "shell" && description.effect !== "python")) return null;
  const args = argumentsOf(step);
  for (const key of [...(description.commandArgs ?? []), ...(description.codeArgs ?? [])]) {
    const value = args[key];
    if (typeof value === "string") return value;
    if (Array.isArray(value)) return value.map(String).join(" ");
  }
  return null;
}

export function executedCommands(steps: readonly TrajectoryStep[], framework: string | null): ExecutedCommand[] {
  // Built-in agents record the tool call and the shell step it ran under one call id: counted once, as the shell step.
  const shellCalls = new Set(steps.flatMap((s) => (s.kind === "shell" && s.callId ? [s.callId] : [])));
  const observations = new Map<string, Extract<TrajectoryStep, { kind: "observation" }>>();
  for (const s of steps)
    if (s.kind === "observation" && s.callId && !observations.has(s.callId)) observations.set(s.callId, s);
  const commands: ExecutedCommand[] = [];
  steps.forEach((step, i) => {
    if (step.kind === "shell") {
      const succeeded = step.timedOut ? false : step.exitCode === null ? null : step.exitCode === 0;
      commands.push({ stepId: step.id, command: step.command, output: step.output, succeeded });
      return;
    }
    if (step.kind !== "tool_call" || (step.callId && shellCalls.has(step.callId))) return;
    const command = callCommand(step, framework);
    if (command === null) return;
    const next = steps[i + 1];
    const observation =
      (step.callId ? observations.get(step.callId) : undefined) ?? (next?.kind === "observation" ? next : undefined);
    commands.push({
      stepId: step.id,
      command,
      output: observation?.text ?? "",
      succeeded: observation ? !observation.isError : null,
    });
  });
  return commands;
}
