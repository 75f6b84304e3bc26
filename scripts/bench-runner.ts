/**
 * npm run bench:runner: harness overhead per run, without the agent, the way run-agents does it: take the workspace from
 * the workspace cache (a reset workspace from its pool, or a copy) and apply the instance's setup,
 * snapshot the environment before and after, set up and tear down the sandbox, read the workspace
 * back, hand it back to the pool and remove the run folder. Measured on
 * sample-corpus instances and on one whose repository is padded with --files generated files
 * (default 5,000), both stored in the database like any benchmark. The first run of each builds
 * the cache (and lists packages) and is reported on its own line. Goal: under 1 s per run for the
 * large repository.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createDb, type Db } from "@/db/client";
import { getInstance, saveBenchmark } from "@/db/queries/benchmarks";
import { buildBenchmark } from "@/lib/benchmark/build";
import { parseDevEvalJsonl } from "@/lib/benchmark/deveval";
import type { AgentConfig } from "@/lib/bundle/schema";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { cliCommand, integerOption, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { removeTree } from "@/lib/runner/copy-tree";
import { recordRun, type AgentOutcome, type RunPhase } from "@/lib/runner/record-run";
import { createWorkspaceCache, type WorkspaceCache } from "@/lib/runner/workspace-cache";
import { instanceWorkspaceSource } from "@/db/queries/instance-workspace";

export const cli = () =>
  cliCommand(
    "npm run bench:runner --",
    "Harness overhead per run without the agent (workspace, snapshots, sandbox, read-back, teardown), per phase.",
  )
    .addOption(integerOption("--runs <n>", "runs measured per repository", { min: 2, max: 1000 }).default(20))
    .addOption(integerOption("--files <n>", "files the padded repository has", { min: 1, max: 200_000 }).default(5000));

const AGENT: AgentConfig = {
  name: "no-op",
  framework: "bench",
  frameworkVersion: null,
  model: "none",
  provider: "none",
  tools: [],
  guidelines: null,
  limits: {},
  options: {},
};
const NOTHING: AgentOutcome = {
  steps: [],
  exitReason: "finished",
  error: null,
  modelCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: null,
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function summary(label: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `${label}: ${times.length} runs, mean ${mean(times).toFixed(0)} ms, p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p95 ${percentile(sorted, 0.95).toFixed(0)} ms per run`;
}

/** `count` Python files of ~1 KB in nested packages, as a repository snapshot would hold them. */
export function generatedFiles(count: number): WorkspaceFiles {
  const files: WorkspaceFiles = new Map();
  for (let i = 0; i < count; i++) {
    const body = Array.from({ length: 30 }, (_, j) => `def f_${i}_${j}(x):\n    return x + ${j}\n`).join("\n");
    files.set(`generated/pkg${i % 50}/sub${i % 7}/module_${i}.py`, { data: Buffer.from(body), mode: 0o100644 });
  }
  return files;
}

/** The sample benchmark, with one repository padded with `padding` generated files; returns instance ids. */
async function saveBenchBenchmark(db: Db, padding: number) {
  const data = "data/sample-corpus/data.jsonl";
  const built = await buildBenchmark({
    benchmarkId: "bench",
    seed: 42,
    splitSize: 200,
    samples: parseDevEvalJsonl(await fs.readFile(data, "utf8"), data),
    sourceCodeDir: "data/sample-corpus/Source_Code",
  });
  const padded = built.instances[0]!.projectPath;
  const snapshot = built.snapshots.get(padded)!;
  for (const [rel, file] of generatedFiles(padding)) snapshot.set(rel, file);
  saveBenchmark(db, built, { name: "bench", source: "sample-corpus", config: {} });
  return {
    small: built.instances.filter((b) => b.projectPath !== padded).map((b) => b.instance.id),
    large: built.instances.filter((b) => b.projectPath === padded).map((b) => b.instance.id),
    bytes: [...snapshot.values()].reduce((n, f) => n + f.data.length, 0),
    files: snapshot.size,
  };
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "bench-runner-"));
  const db = createDb(path.join(work, "studio.db"));
  try {
    const ids = await saveBenchBenchmark(db, args.files);
    io.stderr.write(
      `padded one repository to ${ids.files} files (${(ids.bytes / 1048576).toFixed(1)} MB) in the database\n`,
    );
    const cache: WorkspaceCache = createWorkspaceCache(path.join(work, "cache", "workspaces"));
    const packageCacheFile = path.join(work, "cache", "packages.json");

    const measure = async (label: string, instanceIds: string[]) => {
      const times: number[] = [];
      const phases = new Map<RunPhase | "teardown", number[]>();
      let fileCount = 0;
      for (let i = 0; i < args.runs; i++) {
        const id = instanceIds[i % instanceIds.length]!;
        const runDir = path.join(work, "runs", `${label}-${i}`);
        const instance = getInstance(db, id)!.instance;
        const note = (phase: RunPhase | "teardown", ms: number) => {
          if (i > 0) phases.set(phase, [...(phases.get(phase) ?? []), ms]);
        };
        const started = performance.now();
        const record = await recordRun({
          runId: `bench-${i}`,
          instance,
          agent: AGENT,
          runDir,
          materialize: (dir) => cache.materialize(instanceWorkspaceSource(db, id), dir),
          packageCacheFile,
          onPhase: note,
          scripted: true,
          requireIsolation: false,
          act: async () => NOTHING,
        });
        const removing = performance.now();
        await cache.release(path.join(runDir, "workspace"));
        await removeTree(runDir);
        note("teardown", performance.now() - removing);
        times.push(performance.now() - started);
        fileCount = record.after.size;
      }
      io.stdout.write(`${label} (${fileCount} files), first run (builds the cache): ${times[0]!.toFixed(0)} ms\n`);
      io.stdout.write(`${summary(`${label} (${fileCount} files), cached`, times.slice(1))}\n`);
      const parts = [...phases].map(([phase, ms]) => `${phase} ${mean(ms).toFixed(0)}`);
      io.stdout.write(`  mean ms by phase: ${parts.join(", ")}\n`);
    };

    await measure("sample corpus", ids.small);
    await measure("padded repository", ids.large);
    return 0;
  } finally {
    db.$client.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
