/**
 * npm run ingest: imports run bundles (folders, folders of bundles, .tar.gz/.tgz/.tar/.zip archives)
 * and runs made elsewhere: native logs of other agents and repo diffs (docs/foreign-runs.md).
 */
import { createDb, databasePathFromEnv } from "@/db/client";
import { instanceRef } from "@/db/queries/benchmarks";
import { importParsedBundle } from "@/db/queries/run-import";
import { cliCommand, integerOption, parseCli } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { loadEnv, readLimitsFrom } from "@/lib/config/env";
import { discoverBundles, ingestBundles, type IngestOutcome } from "@/lib/bundle/ingest";
import { addForeignOptions, foreignOptionsFrom, readLogBatches } from "@/lib/cli/foreign-options";
import { foreignBundles, type ForeignOutcome } from "@/lib/foreign/import";

export const cli = () =>
  addForeignOptions(
    cliCommand(
      "npm run ingest --",
      "Imports run bundles (folders, folders of bundles, .tar.gz/.tgz/.tar/.zip archives) and runs made elsewhere " +
        "(native logs of OpenHands, SWE-agent, mini-swe-agent, Claude Code, Codex, Gemini CLI, Inspect, smolagents, " +
        "Agno; SWE-bench predictions; unified diffs).",
    )
      .argument("<paths...>", "bundles, archives, agent logs, diffs, or folders of them")
      .option("--replace", "overwrite a run already imported from a different bundle (default: refuse it)")
      .addOption(integerOption("--concurrency <n>", "bundles read at once", { min: 1, max: 64 }).default(8))
      .option("--json", "print the summary and every result as JSON"),
  );

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const {
    options: args,
    args: [positionals],
  } = parsed;
  const env = loadEnv(io.env);
  const db = createDb(databasePathFromEnv(io.env));
  try {
    const { sources, logs, problems } = await discoverBundles(positionals);
    for (const problem of problems) io.stderr.write(`error: ${problem.path}: ${problem.message}\n`);
    const foreign = await foreignOptionsFrom(args, {
      ourInstance: (id) => instanceRef(db, id),
    });

    const progress = createProgress("ingest", sources.length + logs.length, io.stderr);
    const started = Date.now();
    const onResult = (result: IngestOutcome) => {
      if (!result.ok) io.stderr.write(`error: ${result.error}\n`);
    };
    const results = await ingestBundles(sources, {
      limits: readLimitsFrom(env),
      concurrency: args.concurrency,
      write: (bundle) => importParsedBundle(db, bundle, { via: "cli", replace: args.replace }),
      onResult: (result) => {
        onResult(result);
        progress.tick(!result.ok);
      },
    });
    const writeForeign = (outcome: ForeignOutcome): IngestOutcome => {
      if (!outcome.ok) return outcome;
      for (const warning of outcome.warnings) io.stderr.write(`warning: ${outcome.label}: ${warning}\n`);
      try {
        return {
          label: outcome.label,
          ok: true,
          ...importParsedBundle(db, outcome.bundle, { via: "cli", replace: args.replace }),
          ...(outcome.warnings.length > 0 ? { warnings: outcome.warnings } : {}),
        };
      } catch (error) {
        return { label: outcome.label, ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    };
    // Foreign logs a batch at a time; each run is written as soon as it is read.
    const logCount = { files: 0, problems: 0, skipped: 0 };
    for await (const batch of readLogBatches(logs, args.format)) {
      for (const problem of batch.problems) io.stderr.write(`error: ${problem}\n`);
      logCount.files += batch.files.length;
      logCount.problems += batch.problems.length;
      logCount.skipped += batch.skipped;
      for (const _problem of batch.problems) progress.tick(true);
      for (let i = 0; i < batch.skipped; i++) progress.tick(false);
      const failedFiles = new Set<string>();
      await foreignBundles(batch.files, foreign, (outcome) => {
        const result = writeForeign(outcome);
        results.push(result);
        onResult(result);
        if (!result.ok) failedFiles.add(outcome.label.replace(/#\d+$/, ""));
      });
      for (const file of batch.files) progress.tick(failedFiles.has(file.name));
    }
    if (sources.length + logs.length > 0) progress.finish();

    const count = (outcome: string) => results.filter((r) => r.ok && r.outcome === outcome).length;
    const summary = {
      found: sources.length,
      logs: logCount.files,
      runs: results.length,
      imported: count("imported"),
      replaced: count("replaced"),
      unchanged: count("unchanged"),
      failed: results.filter((r) => !r.ok).length + problems.length + logCount.problems,
      skipped: logCount.skipped,
      seconds: Number(((Date.now() - started) / 1000).toFixed(2)),
    };
    if (args.json) io.stdout.write(`${JSON.stringify({ ...summary, results })}\n`);
    else {
      io.stdout.write(
        `${summary.found} bundle(s)` +
          (logCount.files > 0
            ? ` and ${logCount.files} foreign log(s) holding ${summary.runs - summary.found} run(s)`
            : "") +
          `: ${summary.imported} imported, ${summary.replaced} replaced, ` +
          `${summary.unchanged} unchanged (already imported), ${summary.failed} failed in ${summary.seconds}s` +
          (logCount.skipped > 0 ? ` (${logCount.skipped} file(s) in folders of no known format skipped)` : "") +
          "\n",
      );
    }
    return summary.failed > 0 ? 1 : 0;
  } finally {
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
