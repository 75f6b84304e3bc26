/**
 * npx tsx scripts/analyze.ts: the four code-level verdicts (Syntax, Signature, Body Change,
 * Context) of one file, or, with --batch FILE.jsonl, of many pairs in one process (for large
 * differential runs): one JSON line out per line in, in order. A bad line prints
 * `{"id", "error": "FILE: line N: problem"}` and the rest go on; the exit code is then 1.
 */
import fs from "node:fs";
import { decodePythonSource } from "@/lib/analysis/ast-report";
import { CPYTHON_CHECK_LIMITS } from "@/lib/analysis/cpython-check";
import { evaluateCodeLevel } from "@/lib/analysis/code-metrics";
import type { CodeLevelResult, Evidence, Verdict } from "@/lib/analysis/schema";
import { choiceOption, cliCommand, parseCli, textOption } from "@/lib/cli/args";
import { createProgress } from "@/lib/cli/progress";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { firstIssue } from "@/lib/errors/zod-issues";
import { boundedLines } from "@/lib/util/bounded-lines";
import { z } from "zod";

const MODES = ["codegen", "move_source", "move_destination"] as const;
/** One Python file at most: what the CPython check accepts. */
export const MAX_SOURCE_BYTES = CPYTHON_CHECK_LIMITS.maxRequestBytes / 2;
/** One --batch line at most (it names files; it does not hold them). */
export const MAX_BATCH_LINE_BYTES = 1024 * 1024;

export const cli = () =>
  cliCommand(
    "npx tsx scripts/analyze.ts",
    "The four code-level verdicts (Syntax, Signature, Body Change, Context) of one file, with evidence.",
  )
    .addOption(textOption("--original <file>", "the Python file before the change (required without --batch)"))
    .addOption(textOption("--modified <file>", "the Python file after the change (required without --batch)"))
    .addOption(textOption("--target <qualname>", "the function or method the task is about (required without --batch)"))
    .addOption(choiceOption("--mode <mode>", "what the task asked for", [...MODES]).default("codegen"))
    .addOption(textOption("--source <file>", "move_destination: the file the function moved from"))
    .option("--json", "print the verdicts as JSON (true = violated, null = not applicable)")
    .addOption(
      textOption(
        "--batch <file>",
        'a JSONL file of pairs {"id","original","modified","target","mode","source"?} (paths relative to the ' +
          'current folder or absolute): one --json line each, with "id"; a bad line prints {"id","error"} and ' +
          "makes the exit code 1",
      ),
    );

async function readInput(flag: string, file: string): Promise<Buffer> {
  try {
    const stat = await fs.promises.stat(file);
    if (stat.isDirectory()) throw Object.assign(new Error("directory"), { code: "EISDIR" });
    if (!stat.isFile()) throw new AppError("INVALID_INPUT", `cannot read --${flag} "${file}": not a regular file`);
    if (stat.size > MAX_SOURCE_BYTES) {
      throw new AppError(
        "TOO_LARGE",
        `cannot read --${flag} "${file}": ${stat.size} bytes, over the ${MAX_SOURCE_BYTES}-byte limit of a file`,
      );
    }
    return await fs.promises.readFile(file);
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : code;
    throw new AppError("INVALID_INPUT", `cannot read --${flag} "${file}": ${reason ?? "unreadable"}`, { cause: error });
  }
}

const asJson = (v: Verdict): boolean | null => (v === "not_applicable" ? null : v === "violated");

/** The --json shape: true = violated, false = not violated, null = not applicable. */
export function jsonReport(result: CodeLevelResult) {
  return {
    syntax: asJson(result.syntax),
    signature: asJson(result.signature),
    body_change: asJson(result.bodyChange),
    context: asJson(result.context),
    evidence: result.evidence,
  };
}

const LABEL: Record<Verdict, string> = {
  violated: "VIOLATED",
  not_violated: "not violated",
  not_applicable: "not applicable",
};

function evidenceLines(items: readonly Evidence[], withMetric: boolean): string[] {
  return items.flatMap((e) => [
    `  ${withMetric ? `[${e.metric}] ` : ""}${e.lineIn}:${e.line}  ${e.message}`,
    ...(e.hunk ? e.hunk.split("\n").map((l) => `      ${l}`) : []),
  ]);
}

export function textReport(result: CodeLevelResult): string {
  const rows: [string, Verdict][] = [
    ["syntax", result.syntax],
    ["signature", result.signature],
    ["body_change", result.bodyChange],
    ["context", result.context],
  ];
  const lines = ["metric       verdict", ...rows.map(([metric, v]) => `${metric.padEnd(12)} ${LABEL[v]}`)];
  if (result.evidence.length > 0) lines.push("", "evidence", ...evidenceLines(result.evidence, true));
  if (result.additions.length > 0) {
    lines.push("", "additions (information, not violations)", ...evidenceLines(result.additions, false));
  }
  return `${lines.join("\n")}\n`;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const args = parsed.options;
  if (args.batch) return runBatch(args.batch, io);
  for (const flag of ["original", "modified", "target"] as const) {
    if (!args[flag]) throw new AppError("INVALID_INPUT", `--${flag} is required (or --batch FILE)`);
  }
  const result = await analyzePair({
    original: args.original!,
    modified: args.modified!,
    target: args.target!,
    mode: args.mode,
    source: args.source ?? null,
  });
  io.stdout.write(args.json ? `${JSON.stringify(jsonReport(result))}\n` : textReport(result));
  return 0;
}

const BatchLineSchema = z
  .object({
    id: z.union([z.string(), z.number()]),
    original: z.string().min(1),
    modified: z.string().min(1),
    target: z.string().min(1),
    mode: z.enum(MODES),
    source: z.string().min(1).nullable().optional(),
  })
  .strict();

type Pair = Omit<z.infer<typeof BatchLineSchema>, "id">;

async function analyzePair(pair: Pair): Promise<CodeLevelResult> {
  const original = decodePythonSource(await readInput("original", pair.original)).text;
  const modified = await readInput("modified", pair.modified);
  const moveSource = pair.source ? decodePythonSource(await readInput("source", pair.source)).text : null;
  return evaluateCodeLevel({ original, modified, target: pair.target, mode: pair.mode, moveSource });
}

/** The lines of the batch file: counted first (for the progress's ETA), then read one by one, each bounded. */
async function runBatch(file: string, io: CliIo): Promise<number> {
  const open = () => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) throw new AppError("INVALID_INPUT", `--batch "${file}": no such file`);
    if (!stat.isFile()) throw new AppError("INVALID_INPUT", `--batch "${file}": not a regular file`);
    return fs.createReadStream(file);
  };
  let total = 0;
  for await (const line of boundedLines(open(), MAX_BATCH_LINE_BYTES)) if (line.tooLong || line.text.trim()) total += 1;
  const progress = createProgress("analyze", total, io.stderr);
  let lineNumber = 0;
  let failed = 0;
  for await (const line of boundedLines(open(), MAX_BATCH_LINE_BYTES)) {
    lineNumber += 1;
    if (!line.tooLong && line.text.trim() === "") continue;
    let id: unknown = `line-${lineNumber}`;
    let output: Record<string, unknown>;
    try {
      if (line.tooLong)
        throw new AppError(
          "INVALID_INPUT",
          `${line.bytes} bytes, over the ${MAX_BATCH_LINE_BYTES}-byte limit of a line`,
        );
      const pair = parseBatchLine(line.text);
      id = pair.id;
      output = { id, ...jsonReport(await analyzePair(pair)) };
    } catch (error) {
      const message = error instanceof AppError ? error.message : String(error);
      output = { id, error: `${file}: line ${lineNumber}: ${message}` };
      failed += 1;
    }
    io.stdout.write(`${JSON.stringify(output)}\n`);
    progress.tick("error" in output);
  }
  progress.finish();
  return failed > 0 ? 1 : 0;
}

function parseBatchLine(text: string): z.infer<typeof BatchLineSchema> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new AppError("INVALID_INPUT", `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = BatchLineSchema.safeParse(raw);
  if (!parsed.success) throw new AppError("INVALID_INPUT", firstIssue(parsed.error, "the line"));
  return parsed.data;
}

if (isEntryPoint(import.meta.url)) await runMain(main);
