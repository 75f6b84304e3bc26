/**
 * npm run build-benchmark -- --deveval-data FILE (--source-code DIR | --metadata-only)
 *   [--name N] [--seed S] [--split-size K] [--out FILE.jsonl] [--json] [--strict]
 * Builds a benchmark (all subtasks, prompts, contracts, split) from DevEval metadata and its
 * repositories, and stores it in the database (STUDIO_DB).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { z } from "zod";
import { createDb, databasePathFromEnv } from "@/db/client";
import { saveBenchmark } from "@/db/queries/benchmarks";
import { buildBenchmark, type BuiltBenchmark } from "@/lib/benchmark/build";
import { parseDevEvalJsonl } from "@/lib/benchmark/deveval";
import { BenchmarkIdSchema } from "@/lib/benchmark/schema";
import { SUBTASKS } from "@/lib/benchmark/subtasks";
import { parseCliArgs } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { canonicalJson } from "@/lib/util/canonical-json";

const USAGE =
  "usage: npm run build-benchmark -- --deveval-data FILE (--source-code DIR | --metadata-only) [--name N] [--seed S] [--split-size K] [--out FILE] [--json] [--strict]";

const ArgsSchema = z.object({
  "deveval-data": z.string({ error: "is required" }).min(1),
  "source-code": z.string().min(1).optional(),
  "metadata-only": z.boolean().default(false),
  name: BenchmarkIdSchema.default("deveval"),
  seed: z.coerce.number().int().min(0).default(42),
  "split-size": z.coerce.number().int().min(1).default(200),
  "delete-file-per-repo": z.coerce.number().int().min(0).default(10),
  "delete-irrelevant-per-repo": z.coerce.number().int().min(0).default(10),
  "paraphrase-provider": z.string().optional(),
  out: z.string().optional(),
  json: z.boolean().default(false),
  strict: z.boolean().default(false),
});

export async function main(argv: string[], io: CliIo): Promise<number> {
  const { values: args } = parseCliArgs(
    argv,
    {
      "deveval-data": { type: "string" },
      "source-code": { type: "string" },
      "metadata-only": { type: "boolean" },
      name: { type: "string" },
      seed: { type: "string" },
      "split-size": { type: "string" },
      "delete-file-per-repo": { type: "string" },
      "delete-irrelevant-per-repo": { type: "string" },
      "paraphrase-provider": { type: "string" },
      out: { type: "string" },
      json: { type: "boolean" },
      strict: { type: "boolean" },
    },
    ArgsSchema,
    USAGE,
  );
  if (!args["metadata-only"] && !args["source-code"]) {
    throw new AppError("INVALID_INPUT", `give --source-code DIR (the Source_Code folder) or --metadata-only\n${USAGE}`);
  }
  if (args["metadata-only"] && args["source-code"]) {
    throw new AppError("INVALID_INPUT", `--metadata-only and --source-code exclude each other\n${USAGE}`);
  }
  if (args["paraphrase-provider"]) {
    throw new AppError(
      "INVALID_INPUT",
      "--paraphrase-provider needs the judge's model-provider interface, which is not built yet (evaluation issue #4)",
    );
  }
  const dataFile = args["deveval-data"];
  if (!fs.existsSync(dataFile)) throw new AppError("INVALID_INPUT", `--deveval-data: no such file ${dataFile}`);
  const sourceDir = args["source-code"] ?? null;
  if (sourceDir && !fs.statSync(sourceDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new AppError("INVALID_INPUT", `--source-code: no such folder ${sourceDir}`);
  }

  const samples = parseDevEvalJsonl(fs.readFileSync(dataFile, "utf8"), dataFile);
  const projects = new Set(samples.map((s) => s.project_path)).size;
  io.stderr.write(`${samples.length} samples in ${projects} repositories${sourceDir ? "" : " (metadata only)"}\n`);
  const progress = createProgress("repositories", projects, io.stderr);
  const built = await buildBenchmark({
    benchmarkId: args.name,
    seed: args.seed,
    splitSize: args["split-size"],
    samples,
    sourceCodeDir: sourceDir,
    deleteFilePerRepository: args["delete-file-per-repo"],
    deleteIrrelevantPerRepository: args["delete-irrelevant-per-repo"],
    onProgress: () => progress.tick(),
  });
  progress.finish();

  const db = createDb(databasePathFromEnv(io.env));
  try {
    const saved = saveBenchmark(db, built, {
      name: args.name,
      source: sourceDir ? "deveval" : "deveval-metadata",
      config: {
        devevalData: dataFile,
        sourceCode: sourceDir,
        metadataOnly: built.metadataOnly,
        splitSize: args["split-size"],
        deleteFilePerRepository: args["delete-file-per-repo"],
        deleteIrrelevantPerRepository: args["delete-irrelevant-per-repo"],
        samples: samples.length,
        dropped: built.dropped.map((d) => ({ namespace: d.sample.namespace, reason: d.reason })),
        mismatches: built.mismatches,
      },
    });
    if (args.out) fs.writeFileSync(args.out, instancesJsonl(built));
    for (const d of built.dropped) io.stderr.write(`dropped: ${d.sample.namespace}: ${d.reason}\n`);
    for (const m of built.mismatches) io.stderr.write(`mismatch: ${m.namespace}: ${m.problem}\n`);
    if (args.json) {
      io.stdout.write(
        `${JSON.stringify({
          benchmark: built.id,
          subtasks: built.counts,
          split: built.splitCounts,
          total: built.instances.length,
          dropped: built.dropped.map((d) => ({ namespace: d.sample.namespace, reason: d.reason })),
          mismatches: built.mismatches,
        })}\n`,
      );
    } else {
      io.stdout.write(summaryTable(built));
      io.stdout.write(
        `stored benchmark "${built.id}": ${saved.instances} instances, ${saved.snapshots} repository snapshots ` +
          `(${(saved.contentBytes / 1e6).toFixed(1)} MB of content), ${saved.removed} stale instances removed` +
          `${saved.keptWithRuns ? `, ${saved.keptWithRuns} stale kept (they have runs)` : ""}\n`,
      );
    }
    return args.strict && built.mismatches.length > 0 ? 1 : 0;
  } finally {
    db.$client.close();
  }
}

function summaryTable(built: BuiltBenchmark): string {
  const lines = SUBTASKS.map(
    (s) => `  ${s.label.padEnd(24)} ${String(built.counts[s.id]).padStart(6)}  (split ${built.splitCounts[s.id]})`,
  );
  return `${["subtask instances:", ...lines, `  ${"total".padEnd(24)} ${String(built.instances.length).padStart(6)}`].join("\n")}\n${built.dropped.length} samples dropped, ${built.mismatches.length} mismatches\n`;
}

/** One canonical JSON line per instance, setup contents as sha256: byte-identical for equal builds. */
export function instancesJsonl(built: BuiltBenchmark): string {
  return built.instances
    .map((b) =>
      canonicalJson({
        ...b.instance,
        projectPath: b.projectPath,
        inEvalSplit: b.inEvalSplit,
        setup: b.setup.map((c) => ({ path: c.path, sha256: c.content ? hash(c.content) : null })),
      }),
    )
    .map((line) => `${line}\n`)
    .join("");
}

function hash(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

if (isEntryPoint(import.meta.url)) await runMain(main);
