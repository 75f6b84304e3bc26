/**
 * npm run bench:analyzer: code-level analysis throughput (`evaluateCodeLevel`, pairs/s) on real
 * Python files, and optionally the published reference implementation's `cmp()` on the same
 * pairs in one python3 process, with the ratio. The two sides run repetition by repetition in
 * turn, so both meet the machine as it is then; the load average is printed beside the numbers.
 *
 * How the pairs are made, deterministically: every `.py` file under the folder, sorted by its
 * path, whose line count is within --min-lines..--max-lines (real files of about 300 lines), up to
 * --files of them. Each file's target is its longest function (most lines; the first in source
 * order on a tie). Each file is one instance run --runs-per-file times: the original is the file
 * as it is, each run's modified file is the original plus one comment line naming the run and
 * the repetition (so no two modified files are equal, and no repetition reuses the one before).
 * Each repetition starts with an empty report cache, as a fresh process would: per instance the
 * first run analyzes the original, the others reuse its report. The first --warmup repetitions
 * are not counted, on either side (the JIT took hundreds of pairs to settle: with one repetition
 * of warm-up, the median of 5 was 203-249 pairs/s where the same code settles at 340).
 *
 * Last, what web-tree-sitter alone costs per original on the same files (its parse, and one visit
 * of every node of the tree), per pair at --runs-per-file: the part of a pair's time that an
 * analysis through web-tree-sitter cannot avoid while it reads every function body (the AST
 * report holds each one normalized), beside ours and what 2x the reference allows.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { performance } from "node:perf_hooks";
import { analyzePython } from "@/lib/analysis/ast-report";
import { evaluateCodeLevel } from "@/lib/analysis/code-metrics";
import { loadPythonParser, parsePython } from "@/lib/analysis/python-parser";
import { clearReportCache } from "@/lib/analysis/report-cache";
import type { FunctionEntry } from "@/lib/analysis/schema";
import type { Node } from "web-tree-sitter";
import { cliCommand, integerOption, parseCli, textOption } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { testDataPath } from "@/lib/test-support/test-data";

const SAMPLE_CORPUS = "data/sample-corpus/Source_Code";
const REFERENCE_DRIVER = new URL("./bench-analyzer-reference.py", import.meta.url);

export const cli = () =>
  cliCommand(
    "npm run bench:analyzer --",
    "Code-level analysis pairs/s on real Python files (original vs original plus a comment line), and the reference implementation's cmp() on the same pairs.",
  )
    .addOption(
      textOption(
        "--source-code <dir>",
        `folder of Python files (default: $STUDIO_TEST_DATA/deveval/Source_Code, else ${SAMPLE_CORPUS})`,
      ),
    )
    .addOption(integerOption("--files <n>", "files used at most", { min: 1, max: 10_000 }).default(85))
    .addOption(integerOption("--min-lines <n>", "smallest file used, in lines", { min: 1, max: 100_000 }).default(150))
    .addOption(integerOption("--max-lines <n>", "largest file used, in lines", { min: 1, max: 100_000 }).default(600))
    .addOption(
      integerOption("--runs-per-file <n>", "runs per instance (pairs per file)", { min: 1, max: 100 }).default(3),
    )
    .addOption(
      integerOption("--repetitions <n>", "timed repetitions (the median is reported)", { min: 1, max: 100 }).default(
        10,
      ),
    )
    .addOption(
      integerOption("--warmup <n>", "repetitions before the timed ones, not counted (on both sides)", {
        min: 1,
        max: 100,
      }).default(10),
    )
    .addOption(textOption("--reference <dir>", "a work tree of the published reference implementation (needs python3)"))
    .addOption(
      textOption(
        "--reference-call <module:function>",
        "the reference's comparison, called as function(original, modified, target)",
        {
          pattern: /^[\w.]+:\w+$/,
          expected: "module:function",
        },
      ).default("cmp:cmp"),
    );

interface Instance {
  file: string;
  original: string;
  lines: number;
  target: string;
}

export interface Pair {
  original: string;
  modified: string;
  target: string;
}

function pythonFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".py"))
    .sort()
    .map((f) => path.join(dir, f));
}

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
const spanOf = (f: FunctionEntry) => f.endLine - f.startLine;

/** The files used and their targets (see the module comment). */
async function instancesOf(dir: string, limits: { files: number; minLines: number; maxLines: number }) {
  const instances: Instance[] = [];
  for (const file of pythonFiles(dir)) {
    if (instances.length >= limits.files) break;
    const original = fs.readFileSync(file, "utf8");
    const lines = lineCount(original);
    if (lines < limits.minLines || lines > limits.maxLines) continue;
    const report = await analyzePython(original);
    if (!report.parses || report.structureErrors) continue;
    let longest: FunctionEntry | null = null;
    for (const f of report.functions) if (!longest || spanOf(f) > spanOf(longest)) longest = f;
    if (!longest) continue;
    const target = longest.occurrence > 1 ? `${longest.qualifiedName}#${longest.occurrence}` : longest.qualifiedName;
    instances.push({ file: path.relative(dir, file), original, lines, target });
  }
  return instances;
}

/** One repetition's pairs: each instance's runs, the modified file naming run and repetition. */
export function pairsOf(instances: readonly Instance[], runsPerFile: number, repetition: number): Pair[] {
  return instances.flatMap((instance) =>
    Array.from({ length: runsPerFile }, (_, run) => ({
      original: instance.original,
      modified: `${instance.original.replace(/\n?$/, "\n")}# edited: run ${run + 1}, repetition ${repetition}\n`,
      target: instance.target,
    })),
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const loadAverage = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} on ${os.availableParallelism()} cores`;

/** How many repetitions are run, and how many of the first are not counted. */
interface Repetitions {
  warmup: number;
  repetitions: number;
}

/** Ours: one repetition's pairs through evaluateCodeLevel in this process, as a fresh process would (empty cache); pairs/s. */
async function timeOurs(pairs: readonly Pair[]): Promise<number> {
  clearReportCache();
  const started = performance.now();
  for (const pair of pairs) await evaluateCodeLevel({ ...pair, mode: "codegen" });
  return pairs.length / ((performance.now() - started) / 1000);
}

/**
 * The reference in one python3 process (bench-analyzer-reference.py) that times each repetition
 * it is sent: `time(pairs)` gives its pairs/s.
 */
async function startReference(dir: string, call: string) {
  const child = spawn("python3", [REFERENCE_DRIVER.pathname, path.resolve(dir)], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) {
      const why = stderr.trim().split("\n").slice(-3).join(" | ") || "it ended";
      throw new AppError("UNAVAILABLE", `the reference failed: ${why}`);
    }
    return line.value;
  };
  const started = new Promise<void>((resolve, reject) => {
    child.on("error", (error) => reject(new AppError("UNAVAILABLE", `python3 does not start: ${error.message}`)));
    child.on("spawn", () => resolve());
  });
  await started;
  child.stdin.write(`${JSON.stringify({ call })}\n`);
  await next(); // "ready": the reference is imported
  return {
    time: async (pairs: readonly Pair[]) => {
      child.stdin.write(`${JSON.stringify(pairs)}\n`);
      return Number(await next());
    },
    stop: () => child.kill(),
  };
}

/** Nodes under `root`, root included, each read as a normalizer reads a token: its type and extent. */
function visitEveryNode(root: Node): number {
  let visited = 0;
  const pending: Node[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    // Each read is a call into WebAssembly, as it is for the analysis.
    const { type, startIndex, endIndex } = node;
    if (type && endIndex >= startIndex) visited++;
    for (const child of node.children) if (child) pending.push(child);
  }
  return visited;
}

/**
 * What web-tree-sitter alone costs per original, before any analysis: its parse, and one visit of
 * every node of the tree (an analysis that normalizes every function body reads about that many).
 * Milliseconds per original, the median of `repetitions` passes over the instances after as many
 * not counted; `nodes`: the mean per original.
 */
async function treeSitterFloor(instances: readonly Instance[], { warmup, repetitions }: Repetitions) {
  const parseMs: number[] = [];
  const visitMs: number[] = [];
  let nodes = 0;
  for (let repetition = 0; repetition < warmup + repetitions; repetition++) {
    let parsing = 0;
    let visiting = 0;
    nodes = 0;
    for (const instance of instances) {
      const started = performance.now();
      const tree = await parsePython(`${instance.original.replace(/\n?$/, "\n")}# floor: repetition ${repetition}\n`);
      const parsed = performance.now();
      nodes += visitEveryNode(tree.rootNode);
      visiting += performance.now() - parsed;
      parsing += parsed - started;
      tree.delete();
    }
    if (repetition >= warmup) {
      parseMs.push(parsing / instances.length);
      visitMs.push(visiting / instances.length);
    }
  }
  return { parseMs: median(parseMs), visitMs: median(visitMs), nodes: nodes / instances.length };
}

/**
 * Ours and, when given, the reference, repetition by repetition in turn (both see the machine as
 * it is then: on a shared host the reference alone moved between 170 and 340 pairs/s within
 * minutes); the first `warmup` repetitions are not counted on either side.
 */
async function measure(
  instances: readonly Instance[],
  runsPerFile: number,
  { warmup, repetitions }: Repetitions,
  reference: Awaited<ReturnType<typeof startReference>> | null,
) {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let repetition = 0; repetition < warmup + repetitions; repetition++) {
    const pairs = pairsOf(instances, runsPerFile, repetition);
    // The first repetitions warm up (the grammar, the CPython helper, and the JIT, which takes
    // several hundred pairs to settle): an evaluation judges thousands. Not counted.
    const counted = repetition >= warmup;
    const own = await timeOurs(pairs);
    if (counted) ours.push(own);
    if (reference) {
      const rate = await reference.time(pairs);
      if (counted) theirs.push(rate);
    }
  }
  return { ours, theirs };
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const dir = args.sourceCode ?? testDataPath("deveval/Source_Code", io.env) ?? SAMPLE_CORPUS;
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new AppError("INVALID_INPUT", `--source-code: no such folder ${dir}`);
  }
  if (args.reference && !fs.statSync(args.reference, { throwIfNoEntry: false })?.isDirectory()) {
    throw new AppError("INVALID_INPUT", `--reference: no such folder ${args.reference}`);
  }
  await loadPythonParser();
  const instances = await instancesOf(dir, args);
  if (instances.length === 0) {
    throw new AppError(
      "INVALID_INPUT",
      `no .py file of ${args.minLines}-${args.maxLines} lines with a function in ${dir}`,
    );
  }
  const meanLines = Math.round(instances.reduce((n, i) => n + i.lines, 0) / instances.length);
  const pairCount = instances.length * args.runsPerFile;
  say(
    `${dir}: ${instances.length} files of ${args.minLines}-${args.maxLines} lines (mean ${meanLines}), ` +
      `${args.runsPerFile} runs each: ${pairCount} pairs, ${args.repetitions} repetitions (median) after ${args.warmup} not counted`,
  );

  const reference = args.reference ? await startReference(args.reference, args.referenceCall) : null;
  let rates: Awaited<ReturnType<typeof measure>>;
  try {
    rates = await measure(instances, args.runsPerFile, args, reference);
  } finally {
    reference?.stop();
  }
  const ours = median(rates.ours);
  const theirs = reference ? median(rates.theirs) : null;
  say(`evaluateCodeLevel: ${ours.toFixed(0)} pairs/s (${loadAverage()})`);
  if (theirs !== null) {
    const each = rates.ours.map((rate, i) => rate / rates.theirs[i]!).sort((a, b) => a - b);
    say(`reference ${args.referenceCall}: ${theirs.toFixed(0)} pairs/s, run in turn with ours (${loadAverage()})`);
    say(
      `ratio: ${(ours / theirs).toFixed(2)}x the reference (goal: 2x); ` +
        `per repetition ${each[0]!.toFixed(2)}-${each.at(-1)!.toFixed(2)}x`,
    );
  }
  // Where the time can go: the originals' parse and one visit of their nodes are paid whatever the
  // analysis does, once per instance (its runs share the original's report).
  const floor = await treeSitterFloor(instances, args);
  const floorPerPair = (floor.parseMs + floor.visitMs) / args.runsPerFile;
  say(
    `web-tree-sitter alone, per original (${floor.nodes.toFixed(0)} nodes): parse ${floor.parseMs.toFixed(2)} ms, ` +
      `one visit of every node ${floor.visitMs.toFixed(2)} ms; ${floorPerPair.toFixed(2)} ms per pair at ` +
      `${args.runsPerFile} runs per file, before any analysis; ours takes ${(1000 / ours).toFixed(2)} ms per pair` +
      (theirs !== null ? `, 2x the reference allows ${(1000 / (2 * theirs)).toFixed(2)}` : "") +
      ` (${loadAverage()})`,
  );
  return 0;
}

if (isEntryPoint(import.meta.url)) await runMain(main);
