/**
 * npm run seed:scale: fills a database (default data/scale/studio.db, never the demo's) with N realistic synthetic runs
 * of the sample benchmark, judged by a rule judge and an LLM judge, to load-test the dashboard
 * (`npm run bench:dashboard`). Every run is stored with synthetic = true and badged in the UI.
 * Resumable: runs already there are skipped.
 */
import os from "node:os";
import { createDb } from "@/db/client";
import { listBenchmarks, saveBenchmark } from "@/db/queries/benchmarks";
import { dropRunIndexes, restoreIndexes } from "@/db/queries/bulk-indexes";
import { runCountAndNewest } from "@/db/queries/runs";
import { insertScaleRuns, scaleInstances, storedRunsBetween } from "@/db/queries/synthetic-runs";
import { buildSampleBenchmark } from "@/lib/benchmark/sample-benchmark";
import { cliCommand, integerOption, parseCli, textOption } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { scaleRun, scaleRunId, type ScaleInstance } from "@/lib/dashboard/scale-runs";

export const SCALE_DB = "data/scale/studio.db";

/**
 * The runs from index `from` to `to` (exclusive), each made just before it is written: a batch
 * made first and held whole (2,000 runs, about 20 MB of objects) outlived V8's young generation,
 * and copying it out cost more than making it.
 */
function* scaleRuns(from: number, to: number, seed: number, instances: readonly ScaleInstance[]) {
  for (let i = from; i < to; i++) yield scaleRun(i, seed, instances);
}

export const cli = () =>
  cliCommand(
    "npm run seed:scale --",
    "Fills a separate database with realistic synthetic runs of the sample benchmark, judged twice, to load-test the dashboard. Resumable.",
  )
    .addOption(
      integerOption("--runs <n>", "synthetic runs in the database", { min: 1, max: 2_000_000 }).default(100_000),
    )
    .addOption(integerOption("--seed <n>", "random seed of the generated runs", { min: 0 }).default(7))
    .addOption(textOption("--db <file>", "the database to fill (never the demo's)").default(SCALE_DB))
    .addOption(integerOption("--batch <n>", "runs inserted per transaction", { min: 1, max: 20_000 }).default(2_000));

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const db = createDb(args.db);
  // A bulk load touches every index of the run tables: a 1 GiB page cache (the default is 2 MiB)
  // keeps their working set in memory. Without the fsync at each WAL checkpoint an interrupted
  // seed still loses nothing committed (only an operating-system crash could); a rerun resumes.
  // Both are this connection's settings, not the database file's.
  db.$client.pragma("cache_size = -1048576");
  db.$client.pragma("synchronous = OFF");
  try {
    if (!listBenchmarks(db).some((b) => b.id === "sample")) {
      io.stderr.write("building the sample benchmark\n");
      saveBenchmark(db, await buildSampleBenchmark(), { name: "sample", source: "sample-corpus", config: {} });
    }
    const instances = scaleInstances(db, "sample");
    const started = Date.now();
    const cpuAtStart = process.cpuUsage();
    const stored = storedRunsBetween(db, scaleRunId(0, args.seed), scaleRunId(args.runs - 1, args.seed));
    // Counts, rate and ETA are of the runs still to write: a resumed seed skips the others.
    const progress = createProgress("synthetic runs", args.runs - stored, io.stderr);
    // Writing more runs than the database holds: the run tables' indexes are built once at the
    // end (sorted) rather than kept up to date row by row (bulk-indexes.ts).
    if (args.runs - stored > runCountAndNewest(db).runs) {
      const dropped = dropRunIndexes(db);
      if (dropped.length > 0) io.stderr.write(`${dropped.length} indexes of the run tables deferred to the end\n`);
    }
    // Every row the seed writes names a run it has just written, one of its two judges, or one of
    // its two file contents: checking each reference (one lookup a step, verdict and file change)
    // cost about 20 us a run (5%). Only this connection's checks are off.
    db.$client.pragma("foreign_keys = OFF");
    let inserted = 0;
    for (let from = 0; from < args.runs; from += args.batch) {
      const to = Math.min(args.runs, from + args.batch);
      // A rerun after an interruption skips the batches already stored without generating them.
      const already = storedRunsBetween(db, scaleRunId(from, args.seed), scaleRunId(to - 1, args.seed));
      if (already === to - from) continue;
      const added = insertScaleRuns(db, scaleRuns(from, to, args.seed, instances));
      inserted += added;
      progress.add(added);
    }
    progress.finish();
    const indexing = Date.now();
    // Also after an interrupted seed: the indexes it deferred are built by the rerun.
    const reference = createDb(":memory:");
    const restored = restoreIndexes(db, reference);
    reference.$client.close();
    if (restored.length > 0)
      io.stderr.write(`${restored.length} indexes built in ${((Date.now() - indexing) / 1000).toFixed(1)}s\n`);
    db.$client.pragma("optimize");
    const seconds = (Date.now() - started) / 1000;
    // The machine is shared: CPU time per run (every thread of this process) and the load average
    // say what the wall rate alone cannot.
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    io.stdout.write(
      `${inserted} synthetic run(s) added (${args.runs - inserted} already there) to ${args.db} in ${seconds.toFixed(1)}s` +
        ` (${(inserted / seconds).toFixed(0)} runs/s; ${cpuSeconds.toFixed(1)} CPU-s, ` +
        `${inserted > 0 ? ((cpuSeconds / inserted) * 1e6).toFixed(0) : "-"} us a run; load ${os.loadavg()[0]!.toFixed(1)})\n` +
        `serve it: STUDIO_DB=${args.db} npm start; measure it: npm run bench:dashboard -- --db ${args.db}\n`,
    );
    return 0;
  } finally {
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
