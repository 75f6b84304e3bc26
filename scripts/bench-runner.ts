/**
 * npm run bench:runner -- [--runs N] [--files N]
 * Harness overhead per run, without the agent: materialize the workspace, snapshot files and
 * environment before and after, set up and tear down the sandbox, remove the run folder. Measured
 * on sample-corpus instances (materialized from the database snapshot) and on a generated
 * repository of --files files (default 5,000; copied copy-on-write where the filesystem allows).
 * Goal: under 1 s per run for the large repository.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { createDb } from "@/db/client";
import { getInstance, materializeInstance, saveBenchmark } from "@/db/queries/benchmarks";
import { buildBenchmark } from "@/lib/benchmark/build";
import { parseDevEvalJsonl } from "@/lib/benchmark/deveval";
import type { AgentConfig } from "@/lib/bundle/schema";
import { parseCliArgs } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { recordRun, type AgentOutcome } from "@/lib/runner/record-run";
import { copyWorkspace } from "@/lib/runner/workspace";

const ArgsSchema = z.object({
  runs: z.coerce.number().int().min(1).max(1000).default(20),
  files: z.coerce.number().int().min(1).max(200_000).default(5000),
});

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

function summary(label: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return `${label}: ${times.length} runs, mean ${mean.toFixed(0)} ms, p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p95 ${percentile(sorted, 0.95).toFixed(0)} ms per run`;
}

/** A repository of `count` Python files of ~1.5 KB in nested packages. */
async function generateRepository(dir: string, count: number): Promise<number> {
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `pkg${i % 50}`, `sub${i % 7}`, `module_${i}.py`);
    const body = Array.from({ length: 30 }, (_, j) => `def f_${i}_${j}(x):\n    return x + ${j}\n`).join("\n");
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, body);
    bytes += body.length;
  }
  return bytes;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const { values: args } = parseCliArgs(
    argv,
    { runs: { type: "string" }, files: { type: "string" } },
    ArgsSchema,
    "usage: npm run bench:runner -- [--runs N] [--files N]",
  );
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "bench-runner-"));
  const db = createDb(path.join(work, "studio.db"));
  try {
    const data = "data/sample-corpus/data.jsonl";
    const built = await buildBenchmark({
      benchmarkId: "bench",
      seed: 42,
      splitSize: 200,
      samples: parseDevEvalJsonl(await fs.readFile(data, "utf8"), data),
      sourceCodeDir: "data/sample-corpus/Source_Code",
    });
    saveBenchmark(db, built, { name: "bench", source: "sample-corpus", config: {} });
    const instances = built.instances.slice(0, args.runs).map((b) => b.instance.id);

    const large = path.join(work, "large-repo");
    const bytes = await generateRepository(large, args.files);
    io.stderr.write(`generated ${args.files} files (${(bytes / 1048576).toFixed(1)} MB) in ${large}\n`);

    const measure = async (
      label: string,
      materialize: (runDir: string, i: number) => (dir: string) => Promise<void>,
    ) => {
      const times: number[] = [];
      let fileCount = 0;
      for (let i = 0; i < args.runs; i++) {
        const runDir = path.join(work, "runs", `${label}-${i}`);
        const instance = getInstance(db, instances[i % instances.length]!)!.instance;
        const started = performance.now();
        const record = await recordRun({
          runId: `bench-${i}`,
          instance,
          agent: AGENT,
          runDir,
          materialize: materialize(runDir, i),
          scripted: true,
          requireIsolation: false,
          act: async () => NOTHING,
        });
        await fs.rm(runDir, { recursive: true, force: true });
        times.push(performance.now() - started);
        fileCount = record.before.size;
      }
      io.stdout.write(`${summary(`${label} (${fileCount} files)`, times)}\n`);
    };

    await measure("sample corpus", (_runDir, i) => async (dir) => {
      await materializeInstance(db, instances[i % instances.length]!, dir);
    });
    let method = "";
    await measure(`generated repository`, () => async (dir) => {
      await fs.rm(dir, { recursive: true });
      method = (await copyWorkspace(large, dir)).method;
    });
    io.stdout.write(`large repository copied by ${method}\n`);
    return 0;
  } finally {
    db.$client.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
