/**
 * npm run build-benchmark: builds a benchmark (all subtasks, prompts, contracts, split) from DevEval metadata and its
 * repositories, and stores it in the database (STUDIO_DB).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createDb, databasePathFromEnv } from "@/db/client";
import { saveBenchmark, saveRepositorySnapshot } from "@/db/queries/benchmarks";
import { buildBenchmark, type BuiltBenchmark } from "@/lib/benchmark/build";
import { parseDevEvalJsonl } from "@/lib/benchmark/deveval";
import {
  generateParaphraseCandidates,
  scriptedParaphraseResponder,
  type CandidateReport,
} from "@/lib/benchmark/paraphrase-candidates";
import { BenchmarkIdSchema } from "@/lib/benchmark/schema";
import { SUBTASKS } from "@/lib/benchmark/subtasks";
import { choiceOption, cliCommand, integerOption, parseCli, schemaOption, textOption } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { DEFAULT_MODELS, PROVIDER_IDS } from "@/lib/llm/chat";
import { openModel } from "@/lib/llm/endpoints";
import { promptScript } from "@/lib/llm/mock-server";
import { canonicalJson } from "@/lib/util/canonical-json";

export const cli = () =>
  cliCommand(
    "npm run build-benchmark --",
    "Builds a benchmark (all subtasks, prompts, contracts, split) from DevEval metadata and its repositories, and stores it in the database (STUDIO_DB).",
  )
    .addOption(textOption("--deveval-data <file>", "DevEval's data.jsonl").makeOptionMandatory())
    .addOption(textOption("--source-code <dir>", "DevEval's Source_Code folder (or --metadata-only)"))
    .option("--metadata-only", "build without the repositories: no workspaces, no code checks")
    .addOption(schemaOption("--name <id>", "the benchmark's id", BenchmarkIdSchema).default("deveval"))
    .addOption(integerOption("--seed <n>", "seed of the evaluation split and of sampling", { min: 0 }).default(42))
    .addOption(integerOption("--split-size <n>", "evaluation-split instances per subtask", { min: 1 }).default(200))
    .addOption(
      integerOption("--delete-file-per-repo <n>", "delete-file instances per repository", { min: 0 }).default(10),
    )
    .addOption(
      integerOption("--delete-irrelevant-per-repo <n>", "delete-irrelevant instances per repository", {
        min: 0,
      }).default(10),
    )
    .addOption(choiceOption("--paraphrase-provider <provider>", "ask a model for extra paraphrases", PROVIDER_IDS))
    .option("--paraphrase-mock", "the paraphrase model is a local scripted server (offline)")
    .addOption(
      integerOption("--paraphrase-candidates <n>", "paraphrases asked per subtask", { min: 1, max: 50 }).default(5),
    )
    .addOption(textOption("--paraphrase-model <model>", "the paraphrase model (default: the provider's default model)"))
    .addOption(textOption("--out <file>", "also write every instance as one canonical JSON line"))
    .option("--json", "print the counts as JSON")
    .option(
      "--strict",
      "exit 1 when a sample is not built: a recorded position does not match the source, or its repository is missing from --source-code",
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 built (mismatches and missing repositories are listed on stderr, apart); 1 with --strict when any sample was not built; 2 bad usage or input.\nRepositories are read one at a time and each snapshot is stored before the next is read.",
    );

type Args = ReturnType<ReturnType<typeof cli>["opts"]>;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  if (!args.metadataOnly && !args.sourceCode) {
    throw new AppError("INVALID_INPUT", "give --source-code DIR (the Source_Code folder) or --metadata-only");
  }
  if (args.metadataOnly && args.sourceCode) {
    throw new AppError("INVALID_INPUT", "--metadata-only and --source-code exclude each other");
  }
  if (args.paraphraseMock && !args.paraphraseProvider) {
    throw new AppError("INVALID_INPUT", "--paraphrase-mock goes with --paraphrase-provider");
  }
  const dataFile = args.devevalData;
  if (!fs.existsSync(dataFile)) throw new AppError("INVALID_INPUT", `--deveval-data: no such file ${dataFile}`);
  const sourceDir = args.sourceCode ?? null;
  if (sourceDir && !fs.statSync(sourceDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new AppError("INVALID_INPUT", `--source-code: no such folder ${sourceDir}`);
  }

  const samples = parseDevEvalJsonl(fs.readFileSync(dataFile, "utf8"), dataFile);
  const projects = new Set(samples.map((s) => s.project_path)).size;
  io.stderr.write(`${samples.length} samples in ${projects} repositories${sourceDir ? "" : " (metadata only)"}\n`);
  const candidates = args.paraphraseProvider ? await paraphraseCandidates(args, io) : [];
  const extraParaphrases = Object.fromEntries(candidates.map((c) => [c.subtask, c.accepted]));
  const progress = createProgress("repositories", projects, io.stderr);
  const source = sourceDir ? "deveval" : "deveval-metadata";
  const db = createDb(databasePathFromEnv(io.env));
  try {
    const streamed = { snapshots: 0, contentBytes: 0 };
    const built = await buildBenchmark({
      benchmarkId: args.name,
      seed: args.seed,
      splitSize: args.splitSize,
      samples,
      sourceCodeDir: sourceDir,
      deleteFilePerRepository: args.deleteFilePerRepo,
      deleteIrrelevantPerRepository: args.deleteIrrelevantPerRepo,
      extraParaphrases,
      onProgress: () => progress.tick(),
      onSnapshot: (projectPath, files) => {
        const meta = { name: args.name, source, config: {} };
        const saved = saveRepositorySnapshot(db, { id: args.name, seed: args.seed, meta }, projectPath, files);
        streamed.snapshots += 1;
        streamed.contentBytes += saved.contentBytes;
      },
    });
    progress.finish();

    const saved = saveBenchmark(db, built, {
      name: args.name,
      source,
      config: {
        devevalData: dataFile,
        sourceCode: sourceDir,
        metadataOnly: built.metadataOnly,
        splitSize: args.splitSize,
        deleteFilePerRepository: args.deleteFilePerRepo,
        deleteIrrelevantPerRepository: args.deleteIrrelevantPerRepo,
        samples: samples.length,
        dropped: built.dropped.map((d) => ({ namespace: d.sample.namespace, reason: d.reason })),
        mismatches: built.mismatches,
        missingRepositories: built.missingRepositories,
        extraParaphrases,
      },
    });
    if (args.out) fs.writeFileSync(args.out, instancesJsonl(built));
    for (const d of built.dropped) io.stderr.write(`dropped: ${d.sample.namespace}: ${d.reason}\n`);
    for (const m of built.mismatches) io.stderr.write(`mismatch: ${m.namespace}: ${m.problem}\n`);
    const missing = built.missingRepositories;
    for (const r of missing)
      io.stderr.write(`missing repository: ${r.projectPath} (${r.samples} samples): no folder ${r.dir}\n`);
    if (missing.length > 0) {
      const samplesMissing = missing.reduce((n, r) => n + r.samples, 0);
      io.stderr.write(`${missing.length} repositories not found (${samplesMissing} samples)\n`);
    }
    if (args.json) {
      io.stdout.write(
        `${JSON.stringify({
          benchmark: built.id,
          subtasks: built.counts,
          split: built.splitCounts,
          total: built.instances.length,
          dropped: built.dropped.map((d) => ({ namespace: d.sample.namespace, reason: d.reason })),
          mismatches: built.mismatches,
          missingRepositories: built.missingRepositories,
        })}\n`,
      );
    } else {
      io.stdout.write(summaryTable(built));
      io.stdout.write(
        `stored benchmark "${built.id}": ${saved.instances} instances, ${saved.snapshots + streamed.snapshots} repository snapshots ` +
          `(${((saved.contentBytes + streamed.contentBytes) / 1e6).toFixed(1)} MB of content), ${saved.removed} stale instances removed` +
          `${saved.keptWithRuns ? `, ${saved.keptWithRuns} stale kept (they have runs)` : ""}\n`,
      );
    }
    const notBuilt = built.mismatches.length + built.missingRepositories.length;
    return args.strict && notBuilt > 0 ? 1 : 0;
  } finally {
    db.$client.close();
  }
}

/** Extra paraphrase candidates from a model (or the scripted mock), vetted like the committed ones. */
async function paraphraseCandidates(args: Args, io: CliIo): Promise<CandidateReport[]> {
  const provider = args.paraphraseProvider ?? "gemini";
  const model = await openModel({
    provider,
    model: args.paraphraseMock ? `mock-${provider}` : (args.paraphraseModel ?? DEFAULT_MODELS[provider]),
    env: io.env,
    mock: args.paraphraseMock ? promptScript((prompt) => scriptedParaphraseResponder({ prompt })) : null,
  });
  try {
    const reports = await generateParaphraseCandidates(model.provider, model.model, args.paraphraseCandidates);
    for (const r of reports) {
      io.stderr.write(`paraphrases ${r.subtask}: ${r.accepted.length} accepted, ${r.rejected.length} rejected\n`);
      for (const x of r.rejected) io.stderr.write(`  rejected: ${x.problems.join("; ")}: ${x.text.slice(0, 100)}\n`);
    }
    return reports;
  } finally {
    await model.close();
  }
}

function summaryTable(built: BuiltBenchmark): string {
  const lines = SUBTASKS.map(
    (s) => `  ${s.label.padEnd(24)} ${String(built.counts[s.id]).padStart(6)}  (split ${built.splitCounts[s.id]})`,
  );
  const missing = built.missingRepositories.length;
  return `${["subtask instances:", ...lines, `  ${"total".padEnd(24)} ${String(built.instances.length).padStart(6)}`].join("\n")}\n${built.dropped.length} samples dropped, ${built.mismatches.length} mismatches${missing > 0 ? `, ${missing} repositories not found` : ""}\n`;
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
