/**
 * One agent run on one instance, recorded whole: materialize the workspace in the run's own
 * folder, snapshot files and environment, run the agent with its tools in the sandbox, snapshot
 * again, kill what is left, and return the run as a bundle-ready record. A run that fails at any
 * point still comes back as a complete record marked failed, with its reason.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { builtinToolbox, SYSTEM_PROMPTS, type BuiltinFramework } from "@/lib/agents/builtin";
import type { ChatProvider } from "@/lib/agents/chat";
import { runAgentLoop, type LoopResult } from "@/lib/agents/loop";
import type { Instance } from "@/lib/benchmark/schema";
import type { AgentConfig, EnvironmentSnapshot, RunManifest } from "@/lib/bundle/schema";
import type { RunRecord, WorkspaceFiles } from "@/lib/bundle/write";
import { AppError } from "@/lib/errors/app-error";
import { captureEnvironment } from "./environment";
import { createSandbox } from "./sandbox";
import { scanWorkspace } from "./workspace";

export interface RunInstanceOptions {
  runId: string;
  instance: Instance;
  agent: AgentConfig & { framework: BuiltinFramework };
  /** The run's own folder: `workspace/`, `home/`, `tmp/` go inside. */
  runDir: string;
  /** Writes the instance's workspace (snapshot + setup) into an empty folder. */
  materialize(dir: string): Promise<void>;
  provider: ChatProvider;
  scripted: boolean;
  /** Per command run by a tool. */
  commandTimeoutMs?: number;
  signal?: AbortSignal;
  /** Folders commands must not see (the project: its database, the benchmark's source and answers). */
  hide?: string[];
  /** Refuse to run when bubblewrap is not available (default true). */
  requireIsolation?: boolean;
  /** Extra files kept verbatim under native/ (e.g. the scripted behaviour). */
  native?: Map<string, Buffer>;
}

export const DEFAULT_LIMITS = { maxSteps: 30, wallTimeSeconds: 600, maxOutputBytes: 1_000_000 };

export async function runInstance(options: RunInstanceOptions): Promise<RunRecord> {
  const { instance, agent } = options;
  const limits = { ...DEFAULT_LIMITS, ...agent.limits };
  const workspaceDir = path.join(options.runDir, "workspace");
  await fs.mkdir(workspaceDir, { recursive: true });
  await options.materialize(workspaceDir);
  const startedAt = new Date();
  const before: WorkspaceFiles = await scanWorkspace(workspaceDir);
  const environmentBefore: EnvironmentSnapshot = await captureEnvironment({ workspaceDir, runDir: options.runDir });

  const sandbox = await createSandbox({
    workspaceDir,
    runDir: options.runDir,
    allowNetwork: false,
    hide: options.hide,
  });
  if (!sandbox.isolated && options.requireIsolation !== false) {
    throw new AppError(
      "UNAVAILABLE",
      `no isolation for agent commands (${sandbox.description}); install bubblewrap or pass --allow-unsandboxed`,
    );
  }
  let loop: LoopResult;
  let failure: string | null = null;
  try {
    const toolbox = await builtinToolbox(agent.framework, {
      workspaceDir,
      sandbox,
      limits: { timeoutMs: options.commandTimeoutMs ?? 60_000, maxOutputBytes: limits.maxOutputBytes },
    });
    loop = await runAgentLoop({
      provider: options.provider,
      model: agent.model,
      system: agent.guidelines
        ? `${SYSTEM_PROMPTS[agent.framework]}\n\n${agent.guidelines}`
        : SYSTEM_PROMPTS[agent.framework],
      task: instance.prompt,
      toolbox,
      limits: { maxSteps: limits.maxSteps, wallTimeMs: limits.wallTimeSeconds * 1000, maxObservationChars: 16_000 },
      signal: options.signal,
    });
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
    loop = {
      steps: [],
      exitReason: "error",
      error: failure,
      finalAnswer: null,
      modelCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      models: new Set(),
    };
  }
  // The after-snapshot sees processes the agent left behind; then they are killed.
  const environmentAfter = await captureEnvironment({
    workspaceDir,
    runDir: options.runDir,
    processGroups: sandbox.processGroups(),
    // No forced re-read of package lists: their cache is keyed by the install folders' state,
    // so an install or removal during the run is seen anyway (lib/runner/packages.ts).
  });
  await sandbox.killAll();
  const after = await scanWorkspace(workspaceDir);
  const finishedAt = new Date();

  const exitReason = loop.exitReason;
  const manifest: RunManifest = {
    format: "misbehavior-studio/run-bundle",
    version: 1,
    runId: options.runId,
    benchmark: instance.benchmark,
    instanceId: instance.id,
    agent,
    scripted: options.scripted,
    status: exitReason === "finished" ? "completed" : "failed",
    exitReason,
    error: loop.error,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    usage: {
      modelCalls: loop.modelCalls,
      inputTokens: loop.inputTokens,
      outputTokens: loop.outputTokens,
      costUsd: options.scripted ? 0 : null,
    },
    taskCompleted: null,
    producer: { name: "misbehavior-studio runner", version: "1" },
  };
  const native = new Map(options.native ?? []);
  native.set(
    "sandbox.json",
    Buffer.from(`${JSON.stringify({ isolated: sandbox.isolated, description: sandbox.description }, null, 1)}\n`),
  );
  return { manifest, steps: loop.steps, before, after, environmentBefore, environmentAfter, instance, native };
}
