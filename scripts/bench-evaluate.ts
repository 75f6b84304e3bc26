/**
 * npm run bench:evaluate: static-evaluation throughput. Per-file AST analysis time over the sample
 * corpus; then the whole rule judge as npm run evaluate runs it (all 11 metrics, the AST report,
 * loading and storing), in this thread and in --workers threads, on generated runs of realistic
 * size (40-file workspace, 5 changed files, 50 steps) and on real runs: the scripted agents on the
 * DevEval repositories (bench-real-runs.ts; made once, then reused). Goal: 200 runs/s on 2 cores.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, type Db } from "@/db/client";
import { evaluationStore, runsToEvaluate } from "@/db/queries/evaluation";
import { importParsedBundle } from "@/db/queries/run-import";
import { ensureJudge } from "@/db/queries/verdicts";
import { analyzePython } from "@/lib/analysis/ast-report";
import { loadPythonParser } from "@/lib/analysis/python-parser";
import { clearReportCache } from "@/lib/analysis/report-cache";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { cliCommand, integerOption, parseCli, textOption } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { evaluateRuns, ruleRunJudge, type EvaluationSummary } from "@/lib/judge/evaluate-runs";
import { codeLevelMetrics } from "@/lib/judge/rules/code-level";
import { fileMetrics } from "@/lib/judge/rules/file-metrics";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";
import { describeRuns, loadAverage, realRunsDb, realRunsSource, samplesOf } from "./bench-real-runs";
import { evaluateRunsInWorkers } from "./evaluate-workers";

export const cli = () =>
  cliCommand(
    "npm run bench:evaluate --",
    "Static-evaluation throughput: per-file AST analysis time, then the whole rule judge with storage (runs/s) in one thread and in worker threads, on generated runs and on real runs of the DevEval repositories.",
  )
    .addOption(integerOption("--count <n>", "generated runs judged", { min: 1, max: 100_000 }).default(1000))
    .addOption(
      integerOption("--workers <n>", "worker threads of the parallel measurements", { min: 1, max: 32 }).default(
        os.availableParallelism(),
      ),
    )
    .addOption(
      integerOption(
        "--passes <n>",
        "real runs: times each run is judged in the longer parallel measurement (12: about as many runs per DevEval sample as the study has)",
        { min: 1, max: 100 },
      ).default(12),
    )
    .addOption(
      textOption(
        "--cache-dir <dir>",
        "where the real runs are made once and kept (default: studio-bench-evaluate under the temporary folder)",
      ),
    );

function pythonFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".py"))
    .map((f) => path.join(dir, f));
}

/** Every run of the database judged again (--force), in this thread or in `workers` threads; runs/s. */
async function timeEvaluation(
  db: Db,
  dbPath: string,
  runIds: readonly string[],
  workers: number,
): Promise<{ rate: string; summary: EvaluationSummary }> {
  const judgeId = ensureJudge(db, RULE_JUDGE);
  clearReportCache();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const store = evaluationStore(db);
  const summary =
    workers === 0
      ? await evaluateRuns(store, ruleRunJudge(judgeId, { force: true, hasArtifact: store.hasArtifact }), runIds, {
          concurrency: 1,
        })
      : await evaluateRunsInWorkers(db, { dbPath, judgeId, force: true }, runIds, { workers });
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  if (summary.failures.length > 0)
    throw new AppError(
      "INTERNAL",
      `${summary.failures.length} run(s) failed to evaluate: ${summary.failures[0]!.error}`,
    );
  // The CPU of this process's threads (CPython's compile helpers apart): what a run costs whatever
  // else the machine runs; a shared machine shares its cores between sessions, not threads.
  const cpuMs = (user + system) / 1000 / runIds.length;
  return { rate: `${(runIds.length / seconds).toFixed(1)} runs/s, ${cpuMs.toFixed(1)} ms of CPU per run`, summary };
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const say = (line: string) => io.stdout.write(`${line}\n`);
  await loadPythonParser();

  // Per-file analysis time over real Python files.
  const files = pythonFiles("data/sample-corpus/Source_Code").map((f) => fs.readFileSync(f, "utf8"));
  const lines = files.reduce((n, f) => n + f.split("\n").length, 0);
  let started = performance.now();
  for (let round = 0; round < 5; round++) for (const source of files) await analyzePython(source);
  const analysisMs = performance.now() - started;
  say(
    `AST report: ${files.length} files x 5 rounds, ${((analysisMs / (files.length * 5)) * 1000).toFixed(0)} µs/file ` +
      `(mean ${Math.round(lines / files.length)} lines), ${Math.round((lines * 5) / (analysisMs / 1000)).toLocaleString("en")} lines/s`,
  );

  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-evaluate-"));
  const measure = async (label: string, dbPath: string, passes = 1) => {
    const db = createDb(dbPath);
    try {
      const ids = runsToEvaluate(db, ensureJudge(db, RULE_JUDGE), { force: true });
      const inThread = await timeEvaluation(db, dbPath, ids, 0);
      say(`${label}, rule judge with storage, in this thread: ${inThread.rate} (${loadAverage()})`);
      const parallel = await timeEvaluation(db, dbPath, ids, args.workers);
      say(
        `${label}, rule judge with storage, ${args.workers} worker threads: ${parallel.rate}, ` +
          `thread start included (${loadAverage()})`,
      );
      if (passes > 1) {
        // The study (7,427 instances x 12 configurations over 1,825 DevEval samples) has about 49
        // runs per sample, which share the sample's original files and their analyses; the real
        // runs here have 4 per sample. Judged `passes` times, they have as many, and the threads'
        // start is spread over as many runs.
        const repeated = Array.from({ length: passes }, () => ids).flat();
        const longer = await timeEvaluation(db, dbPath, repeated, args.workers);
        say(
          `${label}, rule judge with storage, ${args.workers} worker threads, each run judged ${passes} times ` +
            `(${(repeated.length / samplesOf(db)).toFixed(0)} runs per DevEval sample): ${longer.rate} (${loadAverage()})`,
        );
      }
    } finally {
      db.$client.close();
    }
  };
  try {
    const generatedDb = path.join(work, "generated.db");
    const db = createDb(generatedDb);
    const ids: string[] = [];
    for (let i = 0; i < args.count; i++) {
      const run = generatedRunRecord({ index: i, seed: 5 });
      importParsedBundle(db, parseBundle(bundleFilesOf(run), `r${i}`), { via: "cli" });
      ids.push(run.manifest.runId);
    }
    say(`generated runs: ${args.count} (50 steps, 5 changed files, 40-file workspace)`);
    const store = evaluationStore(db);
    const inputs = ids.map((id) => store.load(id));
    started = performance.now();
    for (const input of inputs) {
      await codeLevelMetrics(input);
      fileMetrics(input);
    }
    const staticSeconds = (performance.now() - started) / 1000;
    say(`generated runs, code-level + file-level metrics: ${(args.count / staticSeconds).toFixed(0)} runs/s`);
    db.$client.close();
    await measure("generated runs", generatedDb);

    const source = realRunsSource(io.env);
    const cached = await realRunsDb(source, args.cacheDir ?? path.join(os.tmpdir(), "studio-bench-evaluate"), io);
    const realDb = path.join(work, "real.db");
    fs.copyFileSync(cached, realDb);
    say(`real runs: the scripted agents on ${source.note}: ${describeRuns(realDb)}`);
    await measure("real runs", realDb, args.passes);
    say(`peak RSS ${(process.resourceUsage().maxRSS / 1e3).toFixed(0)} MB (the process, worker threads included)`);
    return 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
