/**
 * A batch of runs as run-agents makes them: each instance in its own workspace (from the workspace
 * cache) and sandbox, K at a time; each finished run stored, its workspace reset and pooled for the
 * next run on its repository; a run stopped by a signal dropped whole, so it is run again next time.
 * The database side (instances, their workspaces, importing a run) comes in as RunBatchStore
 * (db/queries/run-plan.ts `runBatchStore`).
 */
import fs from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { chooseBehaviour } from "@/lib/agents/scripted-behaviours";
import type { Instance } from "@/lib/benchmark/schema";
import type { SubtaskId } from "@/lib/benchmark/subtasks";
import { AppError } from "@/lib/errors/app-error";
import type { AgentSetup } from "./agent-setup";
import type { Shard } from "./shard";
import { removeTree } from "./copy-tree";
import { discardRun, storeRun, type ImportBundle } from "./store-run";
import { createWorkspaceCache, type WorkspaceSource } from "./workspace-cache";
import { workspaceBaseOfSource } from "./workspace-base";
import type { WorkspaceBase } from "@/lib/bundle/workspace-delta";

/** Which runs a batch makes (db/queries/run-plan.ts `planRuns`, or the studio's GET /api/workers/plan). */
export interface RunPlanRequest {
  benchmarkId: string;
  subtask?: SubtaskId;
  /** Only the instances of the evaluation split. */
  splitOnly: boolean;
  configId: string;
  /** The first N pending instances of each subtask (a spread for demos). */
  perSubtask?: number;
  limit?: number;
  /** Only these instances (an ablation runs the same ones under every arm); each must match the filters. */
  instanceIds?: readonly string[];
  /** Only this shard of the matching instances (`--shard i/n`); the other filters apply within it. */
  shard?: Shard;
}

/** The local database (db/queries/run-plan.ts) or a studio over HTTP (lib/remote/remote-store.ts). */
export interface RunBatchStore {
  instance(id: string): Promise<Instance | null>;
  workspaceSource(id: string): Promise<WorkspaceSource>;
  importBundle: ImportBundle;
}

export interface RunBatchOptions {
  runsDir: string;
  /** The workspace cache and the host's package lists (lib/runner/workspace-cache.ts). */
  cacheDir: string;
  concurrency: number;
  /** Seeds the scripted behaviour each instance gets from the mock model. */
  seed: number;
  keepWorkspaces: boolean;
  allowUnsandboxed: boolean;
  maxStoredFileBytes: number;
  /** Aborted by a stop signal; `dropIfStopped` removes a run it cut short (scripts/run-agents-stop.ts). */
  stop: { signal: AbortSignal; dropIfStopped(runDir: string): Promise<boolean> };
  /** Told of each run as it ends: whether it failed (or could not be recorded, with the reason). */
  onRun?(instanceId: string, outcome: { failed: boolean; error?: string }): void;
}

export interface RunBatchOutcomes {
  completed: number;
  failed: number;
  /** Could not be recorded. */
  errors: number;
  /** Cut short by a stop signal and dropped. */
  dropped: number;
  notStarted: number;
}

export async function runBatch(
  setup: AgentSetup,
  todo: readonly { instanceId: string; runId: string }[],
  store: RunBatchStore,
  options: RunBatchOptions,
): Promise<RunBatchOutcomes> {
  const cacheDir = path.resolve(options.cacheDir);
  const workspaces = createWorkspaceCache(path.join(cacheDir, "workspaces"));
  // A bubblewrap run leaves no process behind that could still write to its workspace, so the
  // workspace is reset and pooled for the next run on this repository.
  const release = (dir: string) => (options.allowUnsandboxed ? removeTree(dir) : workspaces.release(dir));
  const { stop } = options;
  const outcomes: RunBatchOutcomes = { completed: 0, failed: 0, errors: 0, dropped: 0, notStarted: 0 };
  const limit = pLimit(options.concurrency);

  const runOne = async (instanceId: string, runId: string) => {
    const runDir = path.join(options.runsDir, runId);
    if (stop.signal.aborted) return void (outcomes.notStarted += 1);
    try {
      const instance = await store.instance(instanceId);
      if (!instance) throw new AppError("NOT_FOUND", `instance ${instanceId} vanished`);
      await removeTree(runDir);
      const behaviour = chooseBehaviour(instance, options.seed);
      let base: WorkspaceBase | null = null;
      const record = await setup.run({
        runId,
        instance,
        runDir,
        scripted: setup.mock !== null,
        // Agents see the system but not this project (database, corpus with the answers, secrets)
        // nor the workspace cache (the original files, answers included).
        hide: [...new Set([path.resolve("."), cacheDir])],
        packageCacheFile: path.join(cacheDir, "packages.json"),
        requireIsolation: !options.allowUnsandboxed,
        maxStoredFileBytes: options.maxStoredFileBytes,
        signal: stop.signal,
        native: setup.mock
          ? new Map([["scripted-behaviour.json", Buffer.from(`${JSON.stringify({ behaviour })}\n`)]])
          : undefined,
        materialize: async (dir: string) => {
          const source = await store.workspaceSource(instanceId);
          const before = await workspaces.materialize(source, dir);
          // The bundle's workspace members are then written as changes against it (version 4).
          base = workspaceBaseOfSource(source);
          const workspaceDir = await fs.realpath(dir);
          setup.mock?.register({ instance, files: before, behaviour, workspaceDir });
          return before;
        },
      });
      if (await stop.dropIfStopped(runDir)) return void (outcomes.dropped += 1);
      const stored = await storeRun(store.importBundle, { ...record, base }, runDir);
      if (!options.keepWorkspaces) {
        await release(path.join(runDir, "workspace"));
        // HOME and TMPDIR hold what the agent wrote outside its workspace (up to its disk quota);
        // the files the run needs from there are in the bundle's native/ already.
        await Promise.all(["home", "tmp"].map((dir) => removeTree(path.join(runDir, dir))));
      }
      if (stored.status === "completed") outcomes.completed += 1;
      else outcomes.failed += 1;
      options.onRun?.(instanceId, { failed: stored.status !== "completed" });
    } catch (error) {
      if (await stop.dropIfStopped(runDir)) return void (outcomes.dropped += 1);
      outcomes.errors += 1;
      // Nothing stays behind (unless asked to keep workspaces): the workspace is pooled or removed.
      if (!options.keepWorkspaces) await discardRun(runDir, release);
      options.onRun?.(instanceId, { failed: true, error: error instanceof Error ? error.message : String(error) });
    }
  };

  await Promise.all(todo.map(({ instanceId, runId }) => limit(() => runOne(instanceId, runId))));
  return outcomes;
}
