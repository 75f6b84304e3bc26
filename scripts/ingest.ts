/**
 * npm run ingest -- PATH... [--replace] [--concurrency N] [--json]
 * Imports run bundles (folders, folders of bundles, .tar.gz/.tgz/.tar/.zip archives).
 */
import { z } from "zod";
import { createDb, databasePathFromEnv } from "@/db/client";
import { importParsedBundle } from "@/db/queries/run-import";
import { parseCliArgs } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { loadEnv, readLimitsFrom } from "@/lib/config/env";
import { discoverBundles, ingestBundles } from "@/lib/bundle/ingest";
import { AppError } from "@/lib/errors/app-error";

const USAGE = "usage: npm run ingest -- PATH... [--replace] [--concurrency N] [--json]";

const ArgsSchema = z.object({
  replace: z.boolean().default(false),
  json: z.boolean().default(false),
  concurrency: z.coerce.number().int().min(1).max(64).default(8),
});

export async function main(argv: string[], io: CliIo): Promise<number> {
  const { values: args, positionals } = parseCliArgs(
    argv,
    { replace: { type: "boolean" }, json: { type: "boolean" }, concurrency: { type: "string" } },
    ArgsSchema,
    USAGE,
  );
  if (positionals.length === 0) throw new AppError("INVALID_INPUT", `no PATH given\n${USAGE}`);
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
