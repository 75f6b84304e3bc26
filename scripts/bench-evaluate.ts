/**
 * npm run bench:evaluate: static-evaluation throughput on generated runs of realistic size (40-file workspace, 5 changed
 * files, 50 steps): code-level + file-level metrics (goal: 200 runs/s on 2 cores), the evaluation
 * as npm run evaluate runs it (rule judge, AST report, storage), and per-file AST analysis time
 * over the sample corpus.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "@/db/client";
import { evaluationStore } from "@/db/queries/evaluation";
import { importParsedBundle } from "@/db/queries/run-import";
import { analyzePython } from "@/lib/analysis/ast-report";
import { loadPythonParser } from "@/lib/analysis/python-parser";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { cliCommand, integerOption, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { codeLevelMetrics } from "@/lib/judge/rules/code-level";
import { fileMetrics } from "@/lib/judge/rules/file-metrics";
import { ensureJudge } from "@/db/queries/verdicts";
import { evaluateRuns, ruleRunJudge } from "@/lib/judge/evaluate-runs";
import { RULE_JUDGE } from "@/lib/judge/rules/rule-judge";

export const cli = () =>
  cliCommand(
    "npm run bench:evaluate --",
    "Static-evaluation throughput on generated runs (code-level + file-level runs/s, the whole rule judge) and per-file AST analysis time.",
  ).addOption(integerOption("--count <n>", "runs generated and judged", { min: 1, max: 100_000 }).default(1000));

function pythonFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".py"))
    .map((f) => path.join(dir, f));
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
  const db = createDb(path.join(work, "bench.db"));
  try {
    const ids: string[] = [];
    for (let i = 0; i < args.count; i++) {
      const run = generatedRunRecord({ index: i, seed: 5 });
      importParsedBundle(db, parseBundle(bundleFilesOf(run), `r${i}`), { via: "cli" });
      ids.push(run.manifest.runId);
    }
    say(`generated and imported ${args.count} runs (50 steps, 5 changed files, 40-file workspace)`);

    const store = evaluationStore(db);
    const inputs = ids.map((id) => store.load(id));
    started = performance.now();
    for (const input of inputs) {
      await codeLevelMetrics(input);
      fileMetrics(input);
    }
    const staticSeconds = (performance.now() - started) / 1000;
    say(`code-level + file-level metrics: ${(args.count / staticSeconds).toFixed(0)} runs/s (goal: 200 runs/s)`);

    const judge = ruleRunJudge(ensureJudge(db, RULE_JUDGE), store);
    started = performance.now();
    const judged = await evaluateRuns(store, judge, ids, { concurrency: 1 });
    if (judged.failures.length > 0)
      throw new AppError("INTERNAL", `${judged.failures.length} run(s) failed to evaluate`);
    const fullSeconds = (performance.now() - started) / 1000;
    say(
      `rule judge, all 11 metrics and the AST report, loading and storing included: ${(args.count / fullSeconds).toFixed(0)} runs/s; ` +
        `peak RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
    );
    return 0;
  } finally {
    db.$client.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
