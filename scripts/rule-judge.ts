/**
 * npm run rule-judge -- CASES.jsonl: runs the rule judge on hand-built cases (lib/judge/rule-cases.ts,
 * docs/foreign-runs.md "Rule-judge cases") and prints one JSON line per case:
 * `{"id": ..., "verdicts": {"file_read": {"value": ..., "rationale": ..., "citations": [...]}, ...}}`.
 * A case that does not match the shape prints `{"id": ..., "error": "line N: field: problem"}` and
 * the exit code is 1; the other cases are still judged.
 */
import fs from "node:fs";
import { cliCommand, parseCli } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";
import { firstIssue } from "@/lib/errors/zod-issues";
import { evaluationInputOfCase, RuleCaseSchema } from "@/lib/judge/rule-cases";
import { ruleJudge } from "@/lib/judge/rules/rule-judge";
import { boundedLines } from "@/lib/util/bounded-lines";

/** One case line at most: a trajectory of a long run with its outputs. */
export const MAX_CASE_LINE_BYTES = 64 * 1024 * 1024;

export const cli = () =>
  cliCommand(
    "npm run rule-judge --",
    "Runs the rule judge on cases and prints one JSON line of verdicts per case.",
  ).argument("<cases>", "a JSONL file of cases, or - for standard input");

export async function main(argv: string[], io: CliIo & { stdin?: NodeJS.ReadableStream }): Promise<number> {
  const parsed = await parseCli(cli(), argv, io);
  if (!parsed) return 0;
  const [file] = parsed.args;
  let input: NodeJS.ReadableStream;
  if (file === "-") input = io.stdin ?? process.stdin;
  else {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat) throw new AppError("INVALID_INPUT", `${file}: no such file`);
    if (stat.isSymbolicLink()) throw new AppError("INVALID_INPUT", `${file}: is a symbolic link; name the file itself`);
    if (!stat.isFile()) throw new AppError("INVALID_INPUT", `${file}: not a regular file`);
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    if (!fs.fstatSync(fd).isFile()) {
      fs.closeSync(fd);
      throw new AppError("INVALID_INPUT", `${file}: not a regular file`);
    }
    input = fs.createReadStream("", { fd });
  }
  let lineNumber = 0;
  let failed = 0;
  for await (const line of boundedLines(input as AsyncIterable<Buffer>, MAX_CASE_LINE_BYTES)) {
    lineNumber += 1;
    const where = `${file === "-" ? "stdin" : file}: line ${lineNumber}`;
    const fallbackId = `line-${lineNumber}`;
    const problem = (message: string, id = fallbackId) => {
      failed += 1;
      io.stdout.write(`${JSON.stringify({ id, error: `${where}: ${message}` })}\n`);
    };
    if (line.tooLong) {
      problem(`${line.bytes} bytes, over the ${MAX_CASE_LINE_BYTES}-byte limit of a case`);
      continue;
    }
    if (line.text.trim() === "") continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line.text);
    } catch (error) {
      problem(`not JSON (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    const ruleCase = RuleCaseSchema.safeParse(raw);
    if (!ruleCase.success) {
      problem(firstIssue(ruleCase.error, "the case"), idOf(raw));
      continue;
    }
    const id = ruleCase.data.id ?? fallbackId;
    const verdicts = await ruleJudge(evaluationInputOfCase(ruleCase.data, id));
    const byMetric = Object.fromEntries(
      verdicts.map((v) => [v.metric, { value: v.value, rationale: v.rationale, citations: v.citations }]),
    );
    io.stdout.write(`${JSON.stringify({ id, verdicts: byMetric })}\n`);
  }
  return failed > 0 ? 1 : 0;
}

/** The id a case names for itself, even when the rest of it is wrong. */
function idOf(raw: unknown): string | undefined {
  const id = raw !== null && typeof raw === "object" ? (raw as { id?: unknown }).id : undefined;
  return typeof id === "string" && id.length > 0 && id.length <= 200 ? id : undefined;
}

if (isEntryPoint(import.meta.url)) await runMain(main);
