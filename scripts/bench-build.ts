/**
 * npm run bench:build: builds a benchmark over a large corpus of repositories and measures the
 * build's time and peak memory. The corpus is made of copies of DevEval repositories (each under
 * a distinct name, with its samples renamed to match) in a temporary folder, with a generated
 * metadata file. Each mode runs in a fresh process, so its peak RSS is its own:
 *   held      every snapshot kept in memory until one save at the end (the builder before it streamed)
 *   streamed  each repository's snapshot stored as soon as it is read (what build-benchmark does)
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "@/db/client";
import { saveBenchmark, saveRepositorySnapshot } from "@/db/queries/benchmarks";
import { buildBenchmark } from "@/lib/benchmark/build";
import { parseDevEvalJsonl, type DevEvalSample } from "@/lib/benchmark/deveval";
import { choiceOption, cliCommand, integerOption, parseCli, textOption } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { testDataPath } from "@/lib/test-support/test-data";

const MODES = ["held", "streamed"] as const;
type Mode = (typeof MODES)[number];

export const cli = () =>
  cliCommand(
    "npm run bench:build --",
    "Builds a benchmark over copies of DevEval repositories and prints build time and peak RSS, snapshots held vs streamed.",
  )
    .addOption(
      textOption(
        "--deveval-data <file>",
        "DevEval metadata of the repositories to copy (default: $STUDIO_TEST_DATA/deveval/data.real5.jsonl)",
      ),
    )
    .addOption(textOption("--source-code <dir>", "their Source_Code folder (default: beside --deveval-data)"))
    .addOption(integerOption("--repos <n>", "repositories in the corpus", { min: 1, max: 10_000 }).default(100))
    .addOption(
      integerOption("--pad-mb <n>", "a data file of this size added to each copy (DevEval's average is 8 MB)", {
        min: 0,
        max: 100,
      }).default(0),
    )
    .addOption(choiceOption("--child <mode>", "internal: run one build in this process", [...MODES]))
    .addOption(textOption("--corpus <dir>", "internal: the corpus the child builds"));

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  if (args.child) {
    if (!args.corpus) throw new AppError("INVALID_INPUT", "--child needs --corpus");
    io.stdout.write(`${JSON.stringify(await buildOnce(args.corpus, args.child))}\n`);
    return 0;
  }
  const dataFile = args.devevalData ?? testDataPath("deveval/data.real5.jsonl", io.env);
  if (!dataFile || !fs.existsSync(dataFile)) {
    throw new AppError(
      "INVALID_INPUT",
      "--deveval-data: give DevEval metadata (or set STUDIO_TEST_DATA to the folder holding deveval/)",
    );
  }
  const sourceDir = args.sourceCode ?? path.join(path.dirname(dataFile), "Source_Code");
  if (!fs.statSync(sourceDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new AppError("INVALID_INPUT", `--source-code: no such folder ${sourceDir}`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-build-"));
  try {
    const corpus = makeCorpus(
      parseDevEvalJsonl(fs.readFileSync(dataFile, "utf8"), dataFile),
      sourceDir,
      work,
      args.repos,
      args.padMb,
    );
    io.stdout.write(
      `corpus: ${corpus.repos} repositories, ${corpus.samples} samples, ${(corpus.bytes / 1e6).toFixed(1)} MB\n`,
    );
    for (const mode of MODES) {
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), "--child", mode, "--corpus", work],
        { encoding: "utf8", env: io.env, maxBuffer: 64 * 1024 * 1024 },
      );
      if (child.status !== 0) throw new Error(`the ${mode} build failed: ${child.stderr.slice(-2000)}`);
      const result = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as BuildResult;
      io.stdout.write(
        `${mode.padEnd(9)} ${result.seconds.toFixed(1)} s, peak RSS ${result.maxRssMb.toFixed(0)} MB, ` +
          `buffers held at the end ${result.buffersMb.toFixed(0)} MB, ` +
          `${result.instances} instances, ${result.snapshots} snapshots, ${result.mismatches} mismatches\n`,
      );
    }
    return 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Copies the repositories round-robin until there are `count`, with their samples renamed. */
function makeCorpus(samples: DevEvalSample[], sourceDir: string, work: string, count: number, padMb: number) {
  const projects = [...new Set(samples.map((s) => s.project_path))].sort();
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const project = projects[i % projects.length]!;
    const copy = `${project}-copy${String(i).padStart(4, "0")}`;
    const dir = path.join(work, "Source_Code", ...copy.split("/"));
    fs.cpSync(path.join(sourceDir, ...project.split("/")), dir, { recursive: true });
    // Real repositories carry data, docs and fixtures beside their code; each copy's own bytes.
    for (let mb = 0; mb < padMb; mb++) {
      fs.mkdirSync(path.join(dir, "bench-data"), { recursive: true });
      fs.writeFileSync(path.join(dir, "bench-data", `${mb}.bin`), Buffer.alloc(1024 * 1024, `${copy}:${mb}\n`));
    }
    for (const s of samples.filter((x) => x.project_path === project)) {
      const renamed: DevEvalSample = {
        ...s,
        namespace: `copy${i}.${s.namespace}`,
        project_path: copy,
        completion_path: `${copy}${s.completion_path.slice(project.length)}`,
      };
      lines.push(JSON.stringify(renamed));
    }
  }
  for (const file of fs.readdirSync(path.join(work, "Source_Code"), { recursive: true, withFileTypes: true })) {
    if (file.isFile()) bytes += fs.statSync(path.join(file.parentPath, file.name)).size;
  }
  fs.writeFileSync(path.join(work, "data.jsonl"), `${lines.join("\n")}\n`);
  return { repos: count, samples: lines.length, bytes };
}

interface BuildResult {
  mode: Mode;
  seconds: number;
  maxRssMb: number;
  buffersMb: number;
  instances: number;
  snapshots: number;
  mismatches: number;
}

async function buildOnce(work: string, mode: Mode): Promise<BuildResult> {
  const dataFile = path.join(work, "data.jsonl");
  const db = createDb(path.join(work, `${mode}.db`));
  const meta = { name: "bench", source: "deveval", config: {} };
  const started = performance.now();
  let streamed = 0;
  try {
    const built = await buildBenchmark({
      benchmarkId: "bench",
      seed: 42,
      splitSize: 200,
      samples: parseDevEvalJsonl(fs.readFileSync(dataFile, "utf8"), dataFile),
      sourceCodeDir: path.join(work, "Source_Code"),
      onSnapshot:
        mode === "streamed"
          ? (projectPath, files) => {
              saveRepositorySnapshot(db, { id: "bench", seed: 42, meta }, projectPath, files);
              streamed += 1;
            }
          : undefined,
    });
    const saved = saveBenchmark(db, built, meta);
    return {
      mode,
      seconds: (performance.now() - started) / 1000,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      // What is still held after the save: the instances (prompts, contracts, setup files).
      buffersMb: process.memoryUsage().arrayBuffers / 1e6,
      instances: saved.instances,
      snapshots: saved.snapshots + streamed,
      mismatches: built.mismatches.length,
    };
  } finally {
    db.$client.close();
  }
}

if (isEntryPoint(import.meta.url)) await runMain(main);
