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
import {
  generateParaphraseCandidates,
  scriptedParaphraseResponder,
  type CandidateReport,
} from "@/lib/benchmark/paraphrase-candidates";
import { BenchmarkIdSchema } from "@/lib/benchmark/schema";
import { SUBTASKS } from "@/lib/benchmark/subtasks";
import { parseCliArgs } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { loadEnv } from "@/lib/config/env";
import { AppError } from "@/lib/errors/app-error";
import { createGeminiProvider } from "@/lib/llm/gemini";
import { startMockGeminiServer, type MockGeminiServer } from "@/lib/llm/mock-gemini-server";
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
  "paraphrase-provider": z.enum(["gemini"]).optional(),
  "paraphrase-mock": z.boolean().default(false),
  "paraphrase-candidates": z.coerce.number().int().min(1).max(50).default(5),
  "paraphrase-model": z.string().min(1).default("gemini-2.5-flash"),
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
      "paraphrase-mock": { type: "boolean" },
      "paraphrase-candidates": { type: "string" },
      "paraphrase-model": { type: "string" },
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
  if (args["paraphrase-mock"] && !args["paraphrase-provider"]) {
    throw new AppError("INVALID_INPUT", `--paraphrase-mock goes with --paraphrase-provider gemini\n${USAGE}`);
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
  const candidates = args["paraphrase-provider"] ? await paraphraseCandidates(args, io) : [];
  const extraParaphrases = Object.fromEntries(candidates.map((c) => [c.subtask, c.accepted]));
  const progress = createProgress("repositories", projects, io.stderr);
  const built = await buildBenchmark({
    benchmarkId: args.name,
    seed: args.seed,
    splitSize: args["split-size"],
    samples,
    sourceCodeDir: sourceDir,
    deleteFilePerRepository: args["delete-file-per-repo"],
    deleteIrrelevantPerRepository: args["delete-irrelevant-per-repo"],
    extraParaphrases,
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
        extraParaphrases,
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

/** Extra paraphrase candidates from Gemini (or the scripted mock), vetted like the committed ones. */
async function paraphraseCandidates(args: z.infer<typeof ArgsSchema>, io: CliIo): Promise<CandidateReport[]> {
  const env = loadEnv(io.env);
  let server: MockGeminiServer | null = null;
  let apiKey = env.GEMINI_API_KEY;
  let baseUrl = env.GOOGLE_GEMINI_BASE_URL;
  let model = args["paraphrase-model"];
  if (args["paraphrase-mock"]) {
    apiKey = "mock-key";
    server = await startMockGeminiServer({ respond: scriptedParaphraseResponder, apiKey });
    baseUrl = server.url;
    model = "mock-gemini";
  }
  if (!apiKey)
    throw new AppError("INVALID_INPUT", "--paraphrase-provider gemini needs GEMINI_API_KEY (or --paraphrase-mock)");
  try {
    const reports = await generateParaphraseCandidates(
      createGeminiProvider({ apiKey, baseUrl }),
      model,
      args["paraphrase-candidates"],
    );
    for (const r of reports) {
      io.stderr.write(`paraphrases ${r.subtask}: ${r.accepted.length} accepted, ${r.rejected.length} rejected\n`);
      for (const x of r.rejected) io.stderr.write(`  rejected: ${x.problems.join("; ")}: ${x.text.slice(0, 100)}\n`);
    }
    return reports;
  } finally {
    await server?.close();
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
