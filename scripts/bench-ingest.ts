/**
 * npm run bench:ingest: generates N realistic bundles (50 steps, 5 changed files each by default) and measures a cold
 * import into a fresh database file. Prints bundles/s and MB/s; the goal is 100 bundles/s.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDb } from "@/db/client";
import { importParsedBundle } from "@/db/queries/run-import";
import { discoverBundles, ingestBundles } from "@/lib/bundle/ingest";
import { DEFAULT_READ_LIMITS } from "@/lib/bundle/read";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf, writeBundleFolder } from "@/lib/bundle/write";
import { cliCommand, integerOption, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";

export const cli = () =>
  cliCommand("npm run bench:ingest --", "Generates realistic bundles and measures a cold import: bundles/s and MB/s.")
    .addOption(integerOption("--count <n>", "bundles generated and imported", { min: 1, max: 100_000 }).default(1000))
    .addOption(integerOption("--concurrency <n>", "bundles read at once", { min: 1, max: 64 }).default(8))
    .addOption(integerOption("--steps <n>", "trajectory steps per bundle", { min: 1, max: 10_000 }).default(50))
    .addOption(integerOption("--changed <n>", "changed files per bundle", { min: 3, max: 100 }).default(5));

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "bench-ingest-"));
  try {
    let bytes = 0;
    for (let i = 0; i < args.count; i++) {
      const files = bundleFilesOf(
        generatedRunRecord({ index: i, seed: 7, steps: args.steps, changedFiles: args.changed }),
      );
      for (const data of files.values()) bytes += data.length;
      await writeBundleFolder(path.join(work, "bundles", `run-${i}`), files);
    }
    io.stdout.write(
      `generated ${args.count} bundles (${args.steps} steps, ${args.changed} changed files each), ${(bytes / 1e6).toFixed(1)} MB\n`,
    );

    const db = createDb(path.join(work, "bench.db"));
    const started = process.hrtime.bigint();
    const { sources } = await discoverBundles([path.join(work, "bundles")]);
    const results = await ingestBundles(sources, {
      limits: DEFAULT_READ_LIMITS,
      concurrency: args.concurrency,
      write: (bundle) => importParsedBundle(db, bundle, { via: "cli" }),
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    db.$client.close();
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) {
      io.stderr.write(`${failed.length} bundles failed; first: ${JSON.stringify(failed[0])}\n`);
      return 1;
    }
    const dbBytes = (await fs.stat(path.join(work, "bench.db"))).size;
    io.stdout.write(
      `cold import (${args.concurrency} bundles in flight): ${args.count} bundles in ${seconds.toFixed(2)}s = ${(args.count / seconds).toFixed(1)} bundles/s, ` +
        `${(bytes / 1e6 / seconds).toFixed(1)} MB/s (goal: 100 bundles/s); database ${(dbBytes / 1e6).toFixed(1)} MB, ` +
        `peak RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB\n`,
    );
    return 0;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
