/**
 * The built-in agents' tool-calling loop: ask the model, run the tools it calls, feed back the
 * results, until it answers without tools or a limit is hit. Every model message, tool call,
 * observation, shell command and file access becomes a normalized trajectory step.
 */
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { AppError } from "@/lib/errors/app-error";
import type { ResourceLimit } from "@/lib/agents/sandbox";
import type { ChatMessage, ChatProvider, ToolCall, ToolSpec } from "@/lib/llm/chat";

export interface ToolOutcome {
  output: string;
  isError: boolean;
  fileActions: { kind: "read" | "write" | "delete"; path: string }[];
  /** Set when the tool ran a shell command or Python code. */
  shell?: { command: string; exitCode: number | null; timedOut: boolean; limitHit?: ResourceLimit | null };
}

export interface Toolbox {
  specs: ToolSpec[];
  execute(call: ToolCall): Promise<ToolOutcome>;
}

export interface LoopLimits {
  maxSteps: number;
  wallTimeMs: number;
  /** Tool output kept per observation; the rest is cut with a marker. */
  maxObservationChars: number;
}

export type LoopExit = "finished" | "step_limit" | "timeout" | "error" | "cancelled" | ResourceLimit;

export interface LoopResult {
  steps: TrajectoryStep[];
  exitReason: LoopExit;
  error: string | null;
  finalAnswer: string | null;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD of every model call, from the provider layer's prices; null once a call had no price. */
  costUsd: number | null;
  models: Set<string>;
}

export interface LoopOptions {
  provider: ChatProvider;
  model: string;
  system: string;
  task: string;
  toolbox: Toolbox;
  limits: LoopLimits;
  temperature?: number;
  signal?: AbortSignal;
  now?: () => number;
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[... ${text.length - max} more characters cut ...]`;
}

export async function runAgentLoop(options: LoopOptions): Promise<LoopResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const steps: TrajectoryStep[] = [];
  const stamp = () => new Date(now()).toISOString();
  const nextId = () => `s${steps.length}`;
  const messages: ChatMessage[] = [{ role: "user", text: options.task }];
  steps.push({ id: nextId(), kind: "message", role: "system", text: options.system, timestamp: stamp() });
  steps.push({ id: nextId(), kind: "message", role: "user", text: options.task, timestamp: stamp() });
  const result: LoopResult = {
    steps,
    exitReason: "finished",
    error: null,
    finalAnswer: null,
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    models: new Set(),
  };

  for (let turn = 0; ; turn++) {
    if (options.signal?.aborted) return { ...result, exitReason: "cancelled" };
    if (turn >= options.limits.maxSteps) return { ...result, exitReason: "step_limit" };
    if (now() - started > options.limits.wallTimeMs) return { ...result, exitReason: "timeout" };
    let response;
    const askedAt = now();
    try {
      response = await options.provider.chat({
        model: options.model,
        system: options.system,
        messages,
        tools: options.toolbox.specs,
        temperature: options.temperature,
      });
    } catch (error) {
      const message =
        error instanceof AppError ? error.message : error instanceof Error ? error.message : String(error);
      return { ...result, exitReason: "error", error: `model call failed: ${message}` };
    }
    result.modelCalls += 1;
    result.inputTokens += response.inputTokens;
    result.outputTokens += response.outputTokens;
    result.costUsd =
      result.costUsd === null || response.costUsd === null || response.costUsd === undefined
        ? null
        : result.costUsd + response.costUsd;
    result.models.add(response.model);
    messages.push({ role: "assistant", text: response.text, toolCalls: response.toolCalls });
    if (response.text.trim() !== "" || response.toolCalls.length === 0) {
      steps.push({
        id: nextId(),
        kind: "message",
        role: "assistant",
        text: response.text,
        timestamp: stamp(),
        durationMs: now() - askedAt,
        inputTokens: response.inputTokens,
        outputTokens: response.outputTokens,
      });
    }
    if (response.toolCalls.length === 0) return { ...result, finalAnswer: response.text };

    for (const call of response.toolCalls) {
      steps.push({
        id: nextId(),
        kind: "tool_call",
        tool: call.name,
        arguments: call.arguments,
        callId: call.id,
        timestamp: stamp(),
      });
      const ranAt = now();
      let outcome: ToolOutcome;
      try {
        outcome = await options.toolbox.execute(call);
      } catch (error) {
        outcome = {
          output: `tool error: ${error instanceof Error ? error.message : String(error)}`,
          isError: true,
          fileActions: [],
        };
      }
      for (const action of outcome.fileActions) {
        const kind = action.kind === "read" ? "file_read" : action.kind === "write" ? "file_write" : "file_delete";
        steps.push({ id: nextId(), kind, path: action.path, callId: call.id, timestamp: stamp() });
      }
      const text = truncate(outcome.output, options.limits.maxObservationChars);
      if (outcome.shell) {
        steps.push({
          id: nextId(),
          kind: "shell",
          callId: call.id,
          command: outcome.shell.command,
          exitCode: outcome.shell.exitCode,
          output: text,
          timedOut: outcome.shell.timedOut,
          durationMs: now() - ranAt,
          timestamp: stamp(),
        });
      } else {
        steps.push({
          id: nextId(),
          kind: "observation",
          callId: call.id,
          text,
          isError: outcome.isError,
          durationMs: now() - ranAt,
          timestamp: stamp(),
        });
      }
      messages.push({ role: "tool", callId: call.id, name: call.name, text, isError: outcome.isError });
      // Memory, processes and disk are the run's, not the command's: past one, the run is over.
      if (outcome.shell?.limitHit) return { ...result, exitReason: outcome.shell.limitHit };
    }
  }
}
