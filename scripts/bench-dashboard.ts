/**
 * npm run bench:dashboard: server time of each dashboard page's queries (scope, query and prepare, as the page runs them)
 * on a database filled by `npm run seed:scale` (default data/scale/studio.db): p50 and p95 per
 * page and variant, in milliseconds. The goal: p95 under 150 ms with 1,000,000 runs.
 */
import fs from "node:fs";
import { createDb, type Db } from "@/db/client";
import { configOptions, pairedRuns } from "@/db/queries/compare";
import { resolveDashboardScope } from "@/db/queries/dashboard-scope";
import { overviewGroups } from "@/db/queries/overview";
import { getRunDetail } from "@/db/queries/run-detail";
import { runCountAndNewest, runFilterOptions, searchRuns, type RunsFilter } from "@/db/queries/runs";
import { cliCommand, integerOption, parseCli, textOption } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { compareConfigurations } from "@/lib/dashboard/compare";
import { prepareMetricChart, prepareOverviewTables } from "@/lib/dashboard/overview";
import { AppError } from "@/lib/errors/app-error";
import { SCALE_DB } from "./seed-scale";

export const cli = () =>
  cliCommand(
    "npm run bench:dashboard --",
    "p50/p95/max server time of each dashboard page's queries on a database filled by npm run seed:scale.",
  )
    .addOption(textOption("--db <file>", "the database to measure").default(SCALE_DB))
    .addOption(integerOption("--iterations <n>", "timed runs of each page query", { min: 5, max: 10_000 }).default(40));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function overview(db: Db, split: "all" | "eval", family?: "code_generation", mitigation?: "codekit") {
  const scope = resolveDashboardScope(db, {});
  if (scope.kind !== "ok" || scope.judgeId === null) throw new AppError("NOT_FOUND", "no judged runs");
  const groups = overviewGroups(db, {
    benchmarkId: scope.benchmarkId,
    judgeId: scope.judgeId,
    split,
    family,
    mitigation,
  });
  prepareOverviewTables(groups);
  prepareMetricChart(groups, "framework");
  prepareMetricChart(groups, "model");
}

function runsPage(db: Db, change: Partial<RunsFilter>) {
  const scope = resolveDashboardScope(db, {});
  if (scope.kind !== "ok") throw new AppError("NOT_FOUND", "no runs");
  searchRuns(db, {
    benchmarkId: scope.benchmarkId,
    judgeId: scope.judgeId,
    sort: "started",
    dir: "desc",
    limit: 50,
    offset: 0,
    ...change,
  });
  runFilterOptions(db);
}

function compare(db: Db) {
  const scope = resolveDashboardScope(db, {});
  if (scope.kind !== "ok" || scope.judgeId === null) throw new AppError("NOT_FOUND", "no judged runs");
  const configs = configOptions(db, scope.benchmarkId, scope.judgeId);
  const [a, b] = [configs[0]!.id, configs[1]!.id];
  compareConfigurations(pairedRuns(db, { benchmarkId: scope.benchmarkId, judgeId: scope.judgeId, a, b }));
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  if (!fs.existsSync(args.db))
    throw new AppError("INVALID_INPUT", `--db: ${args.db} does not exist; fill it with npm run seed:scale`);
  const db = createDb(args.db);
  try {
    const { runs, newestRunId: someRun } = runCountAndNewest(db);
    if (!someRun) throw new AppError("INVALID_INPUT", `--db: ${args.db} has no runs; fill it with npm run seed:scale`);
    const cases: [string, () => unknown][] = [
      ["overview (all instances)", () => overview(db, "all")],
      ["overview (eval split)", () => overview(db, "eval")],
      ["overview (one family)", () => overview(db, "all", "code_generation")],
      ["overview (one arm)", () => overview(db, "all", undefined, "codekit")],
      ["compare (two configurations)", () => compare(db)],
      ["runs: newest first, page 1", () => runsPage(db, {})],
      ["runs: page 1,000", () => runsPage(db, { offset: 49_950 })],
      ["runs: sort by violations", () => runsPage(db, { sort: "violations" })],
      ["runs: sort by cost ascending", () => runsPage(db, { sort: "cost", dir: "asc" })],
      ["runs: violated File Read", () => runsPage(db, { metric: "file_read" })],
      [
        "runs: subtask + framework + model",
        () => runsPage(db, { subtaskId: "testing", framework: "openhands", model: "gpt-5" }),
      ],
      ["runs: judges disagree", () => runsPage(db, { disagreement: true })],
      ["runs: one arm", () => runsPage(db, { mitigation: "codekit" })],
      ["runs: one arm + violated File Read", () => runsPage(db, { mitigation: "codekit", metric: "file_read" })],
      ["runs: search 'pip install'", () => runsPage(db, { q: "pip install" })],
      ["runs: search + violated metric", () => runsPage(db, { q: "pytest", metric: "resource_exhaustion" })],
      ["runs: search + sort by violations", () => runsPage(db, { q: "pytest", sort: "violations" })],
      [
        "runs: search + cost asc, page 100",
        () => runsPage(db, { q: "Traceback", sort: "cost", dir: "asc", offset: 4_950 }),
      ],
      ["runs: rare words + one arm", () => runsPage(db, { q: "pip install requests", mitigation: "codekit" })],
      ["run detail", () => getRunDetail(db, someRun)],
    ];
    io.stdout.write(`${runs} runs in ${args.db}; ${args.iterations} iterations per page query (after 3 warm-up)\n\n`);
    io.stdout.write(
      `${"page query".padEnd(36)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"max ms".padStart(8)}\n`,
    );
    let worst = 0;
    for (const [name, run] of cases) {
      for (let i = 0; i < 3; i++) await run();
      const times: number[] = [];
      for (let i = 0; i < args.iterations; i++) {
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 0.95);
      worst = Math.max(worst, p95);
      io.stdout.write(
        `${name.padEnd(36)} ${percentile(times, 0.5).toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${times[times.length - 1]!.toFixed(1).padStart(8)}\n`,
      );
    }
    io.stdout.write(`\nworst p95: ${worst.toFixed(1)} ms (goal: under 150 ms)\n`);
    return 0;
  } finally {
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
