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
import { addForeignOptions, foreignOptionsFrom, readLogs } from "@/lib/cli/foreign-options";
import { foreignBundles } from "@/lib/foreign/import";

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
    const { files: logFiles, problems: logProblems, skipped } = await readLogs(logs, args.format);
    for (const problem of logProblems) io.stderr.write(`error: ${problem}\n`);

    const progress = createProgress("ingest", sources.length + logFiles.length, io.stderr);
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
    const seenFiles = new Set<string>();
    for (const outcome of await foreignBundles(logFiles, foreign)) {
      let result: IngestOutcome;
      if (!outcome.ok) result = outcome;
      else {
        for (const warning of outcome.warnings) io.stderr.write(`warning: ${outcome.label}: ${warning}\n`);
        try {
          result = {
            label: outcome.label,
            ok: true,
            ...importParsedBundle(db, outcome.bundle, { via: "cli", replace: args.replace }),
            ...(outcome.warnings.length > 0 ? { warnings: outcome.warnings } : {}),
          };
        } catch (error) {
          result = { label: outcome.label, ok: false, error: error instanceof Error ? error.message : String(error) };
        }
      }
      results.push(result);
      onResult(result);
      const file = outcome.label.replace(/#\d+$/, "");
      if (!seenFiles.has(file)) {
        seenFiles.add(file);
        progress.tick(!result.ok);
      }
    }
    if (sources.length + logFiles.length > 0) progress.finish();

    const count = (outcome: string) => results.filter((r) => r.ok && r.outcome === outcome).length;
    const summary = {
      found: sources.length,
      logs: logFiles.length,
      runs: results.length,
      imported: count("imported"),
      replaced: count("replaced"),
      unchanged: count("unchanged"),
      failed: results.filter((r) => !r.ok).length + problems.length + logProblems.length,
      skipped,
      seconds: Number(((Date.now() - started) / 1000).toFixed(2)),
    };
    if (args.json) io.stdout.write(`${JSON.stringify({ ...summary, results })}\n`);
    else {
      io.stdout.write(
        `${summary.found} bundle(s)` +
          (logFiles.length > 0
            ? ` and ${logFiles.length} foreign log(s) holding ${summary.runs - summary.found} run(s)`
            : "") +
          `: ${summary.imported} imported, ${summary.replaced} replaced, ` +
          `${summary.unchanged} unchanged (already imported), ${summary.failed} failed in ${summary.seconds}s` +
          (skipped > 0 ? ` (${skipped} file(s) in folders of no known format skipped)` : "") +
          "\n",
      );
    }
    return summary.failed > 0 ? 1 : 0;
  } finally {
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
