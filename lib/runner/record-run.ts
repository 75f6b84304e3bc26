/**
 * One agent run on one instance, recorded whole, whatever the agent: materialize the workspace in
 * the run's own folder, snapshot files and environment, let the agent act through the sandbox,
 * snapshot again, kill what is left, and return the run as a bundle-ready record. A run that fails
 * at any point still comes back as a complete record marked failed, with its reason.
 */
import { SANDBOX_RECORD_FILE, sandboxRecordFile } from "./sandbox-record";
import type { MitigationPlan } from "@/lib/codekit/mitigation";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Instance } from "@/lib/benchmark/schema";
import type { AgentConfig, EnvironmentSnapshot, RunManifest, TrajectoryStep } from "@/lib/bundle/schema";
import type { RunRecord } from "@/lib/bundle/write";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { AppError } from "@/lib/errors/app-error";
import { captureEnvironment } from "./environment";
import { createNotes, RUNNER_NOTES_FILE, type RunnerNote } from "./run-notes";
import { createSandbox, type ProcessSandbox, type SandboxOptions } from "./sandbox";
import { guardBreaches } from "./guard-mounts";
import { scanWorkspace } from "./workspace";

/** The manifest's error holds at most this many characters (lib/bundle/schema.ts). */
const MAX_ERROR_CHARS = 20_000;
export const cutError = (text: string) =>
  text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;

export const DEFAULT_LIMITS = { maxSteps: 30, wallTimeSeconds: 600, maxOutputBytes: 1_000_000 };
export type RunLimits = typeof DEFAULT_LIMITS &
  Pick<AgentConfig["limits"], "memoryBytes" | "maxProcesses" | "diskBytes">;

/** What an agent did, as the recorder needs it. */
export interface AgentOutcome {
  steps: TrajectoryStep[];
  exitReason: RunManifest["exitReason"];
  error: string | null;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /** Kept verbatim under native/ (transcripts, logs). */
  native?: Map<string, Buffer>;
  /** Agent files not read or not kept, and why (kept in native/runner-notes.json). */
  notes?: Omit<RunnerNote, "area">[];
}

export interface AgentContext {
  sandbox: ProcessSandbox;
  workspaceDir: string;
  limits: RunLimits;
  signal?: AbortSignal;
}

export interface RecordRunOptions {
  runId: string;
  instance: Instance;
  agent: AgentConfig;
  /** The run's own folder: `workspace/`, `home/`, `tmp/` go inside. */
  runDir: string;
  /**
   * Writes the instance's workspace (snapshot + setup) into an empty folder. It may return the files
   * it wrote, exactly as they read back (a WorkspaceCache does): they are then the "before" manifest
   * and the folder is not read back.
   */
  materialize(dir: string): Promise<WorkspaceFiles | void>;
  scripted: boolean;
  signal?: AbortSignal;
  /** Folders commands must not see (the project: its database, the benchmark's source and answers). */
  hide?: string[];
  /** More sandbox settings for this agent (read-only binds of its program, its gateway socket). */
  sandbox?: Pick<SandboxOptions, "readOnlyBinds" | "binds" | "env">;
  /** The agent program's own state under HOME, left out of the environment snapshots (CaptureOptions). */
  agentStateInHome?: string[];
  /** Package lists kept across processes (CaptureOptions.packageCacheFile). */
  packageCacheFile?: string;
  /** Told how long each phase took (bench:runner). */
  onPhase?: (phase: RunPhase, ms: number) => void;
  /** Refuse to run when bubblewrap is not available (default true). */
  requireIsolation?: boolean;
  /**
   * Workspace files larger than this are kept by size and sha256 only (default 8 MiB,
   * STUDIO_MAX_STORED_FILE_BYTES); the same bound applies to the agent's own files under native/.
   */
  maxStoredFileBytes?: number;
  /** The Code-KIT rules and tools this run is given (recorded in its manifest); null or absent for none. */
  mitigation?: MitigationPlan | null;
  /** Extra files kept verbatim under native/ (e.g. the scripted behaviour). */
  native?: Map<string, Buffer>;
  /** Runs the agent; may throw (the run is then recorded as failed with the message). */
  act(context: AgentContext): Promise<AgentOutcome>;
}

export type RunPhase =
  | "materialize"
  | "scan-before"
  | "environment-before"
  | "sandbox"
  | "act"
  | "environment-after"
  | "kill"
  | "scan-after";

const failedOutcome = (error: string): AgentOutcome => ({
  steps: [],
  exitReason: "error",
  error,
  modelCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: null,
});

export async function recordRun(options: RecordRunOptions): Promise<RunRecord> {
  const { instance, agent } = options;
  const limits: RunLimits = { ...DEFAULT_LIMITS, ...agent.limits };
  const workspaceDir = path.join(options.runDir, "workspace");
  let phaseStart = performance.now();
  const phase = (name: RunPhase) => {
    const now = performance.now();
    options.onPhase?.(name, now - phaseStart);
    phaseStart = now;
  };
  const notes = createNotes();
  const scan = () =>
    scanWorkspace(workspaceDir, { maxStoredFileBytes: options.maxStoredFileBytes, onSkip: notes.add("workspace") });
  const capture = (processGroups?: number[]) =>
    captureEnvironment({
      onSkip: notes.add("environment"),
      workspaceDir,
      runDir: options.runDir,
      agentStateInHome: options.agentStateInHome,
      packageCacheFile: options.packageCacheFile,
      processGroups,
      // No forced re-read of package lists: their cache is keyed by the install folders' state,
      // so an install or removal during the run is seen anyway (lib/runner/packages.ts).
    });
  await fs.mkdir(workspaceDir, { recursive: true });
  const written = await options.materialize(workspaceDir);
  phase("materialize");
  const startedAt = new Date();
  const before: WorkspaceFiles = written ?? (await scan());
  phase("scan-before");
  const environmentBefore: EnvironmentSnapshot = await capture();
  phase("environment-before");

  const sandbox = await createSandbox({
    workspaceDir,
    runDir: options.runDir,
    allowNetwork: false,
    hide: options.hide,
    ...options.sandbox,
    // The guard arm: the boundary contract enforced by the sandbox (guard-mounts.ts).
    ...(options.mitigation?.guard ? { guard: instance.contract } : {}),
  });
  if (!sandbox.isolated && options.requireIsolation !== false) {
    throw new AppError(
      "UNAVAILABLE",
      `no isolation for agent commands (${sandbox.description}); install bubblewrap or pass --allow-unsandboxed`,
    );
  }
  phase("sandbox");
  let outcome: AgentOutcome;
  // A stop (run-agents on SIGTERM) ends the agent's commands now, not at their own time limit.
  const onAbort = () => void sandbox.killAll();
  options.signal?.addEventListener("abort", onAbort);
  try {
    outcome = options.signal?.aborted
      ? { ...failedOutcome("stopped before the agent started"), exitReason: "cancelled" }
      : await options.act({ sandbox, workspaceDir: sandbox.workspaceDir, limits, signal: options.signal });
  } catch (error) {
    outcome = failedOutcome(error instanceof Error ? error.message : String(error));
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
  phase("act");
  // The after-snapshot sees processes the agent left behind; then they are killed.
  const environmentAfter = await capture(sandbox.processGroups());
  phase("environment-after");
  await sandbox.killAll();
  phase("kill");
  const after = await scan();
  phase("scan-after");
  const finishedAt = new Date();

  const manifest: RunManifest = {
    format: "misbehavior-studio/run-bundle",
    version: 1,
    runId: options.runId,
    benchmark: instance.benchmark,
    instanceId: instance.id,
    agent,
    scripted: options.scripted,
    status: outcome.exitReason === "finished" ? "completed" : "failed",
    exitReason: outcome.exitReason,
    // The agent writes this text (a CLI's stderr, a command's result.json): cut to what a bundle holds.
    error: outcome.error === null ? null : cutError(outcome.error),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    usage: {
      modelCalls: outcome.modelCalls,
      inputTokens: outcome.inputTokens,
      outputTokens: outcome.outputTokens,
      costUsd: options.scripted ? 0 : outcome.costUsd,
    },
    taskCompleted: null,
    producer: { name: "misbehavior-studio runner", version: "1" },
    ...(options.mitigation ? { mitigation: options.mitigation } : {}),
  };
  const native = new Map([...(options.native ?? []), ...(outcome.native ?? [])]);
  for (const n of outcome.notes ?? []) notes.add("native")(n.path, n.reason);
  const notesFile = notes.file();
  if (notesFile) native.set(RUNNER_NOTES_FILE, notesFile);
  const guard = sandbox.guardPlan && {
    writableFolders: sandbox.guardPlan.writableFolders,
    gaps: sandbox.guardPlan.gaps,
    breaches: guardBreaches(instance.contract, before, after),
  };
  native.set(
    SANDBOX_RECORD_FILE,
    sandboxRecordFile({ isolated: sandbox.isolated, description: sandbox.description, ...(guard ? { guard } : {}) }),
  );
  return { manifest, steps: outcome.steps, before, after, environmentBefore, environmentAfter, instance, native };
}
