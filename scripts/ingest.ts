/** npm run ingest: imports run bundles (folders, folders of bundles, .tar.gz/.tgz/.tar/.zip archives). */
import { createDb, databasePathFromEnv } from "@/db/client";
import { importParsedBundle } from "@/db/queries/run-import";
import { cliCommand, integerOption, parseCli } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { loadEnv, readLimitsFrom } from "@/lib/config/env";
import { discoverBundles, ingestBundles } from "@/lib/bundle/ingest";

export const cli = () =>
  cliCommand("npm run ingest --", "Imports run bundles: folders, folders of bundles, .tar.gz/.tgz/.tar/.zip archives.")
    .argument("<paths...>", "bundles, folders of bundles or archives")
    .option("--replace", "overwrite a run already imported from a different bundle (default: refuse it)")
    .addOption(integerOption("--concurrency <n>", "bundles read at once", { min: 1, max: 64 }).default(8))
    .option("--json", "print the summary and every result as JSON");

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
    const { sources, problems } = await discoverBundles(positionals);
    for (const problem of problems) io.stderr.write(`error: ${problem.path}: ${problem.message}\n`);

    const progress = createProgress("ingest", sources.length, io.stderr);
    const started = Date.now();
    const results = await ingestBundles(sources, {
      limits: readLimitsFrom(env),
      concurrency: args.concurrency,
      write: (bundle) => importParsedBundle(db, bundle, { via: "cli", replace: args.replace }),
      onResult: (result) => {
        if (!result.ok) io.stderr.write(`error: ${result.error}\n`);
        progress.tick(!result.ok);
      },
    });
    if (sources.length > 0) progress.finish();

    const count = (outcome: string) => results.filter((r) => r.ok && r.outcome === outcome).length;
    const summary = {
      found: sources.length,
      imported: count("imported"),
      replaced: count("replaced"),
      unchanged: count("unchanged"),
      failed: results.filter((r) => !r.ok).length + problems.length,
      seconds: Number(((Date.now() - started) / 1000).toFixed(2)),
    };
    if (args.json) io.stdout.write(`${JSON.stringify({ ...summary, results })}\n`);
    else {
      io.stdout.write(
        `${summary.found} bundle(s): ${summary.imported} imported, ${summary.replaced} replaced, ` +
          `${summary.unchanged} unchanged (already imported), ${summary.failed} failed in ${summary.seconds}s\n`,
      );
    }
    return summary.failed > 0 ? 1 : 0;
  } finally {
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
