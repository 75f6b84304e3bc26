/** npx tsx scripts/analyze.ts: the four code-level verdicts (Syntax, Signature, Body Change, Context) of one file. */
import fs from "node:fs/promises";
import { decodePythonSource } from "@/lib/analysis/ast-report";
import { evaluateCodeLevel } from "@/lib/analysis/code-metrics";
import type { CodeLevelResult, Evidence, Verdict } from "@/lib/analysis/schema";
import { choiceOption, cliCommand, parseCli, textOption } from "@/lib/cli/args";
import { isEntryPoint, runMain, type CliIo } from "@/lib/cli/run-cli";
import { AppError } from "@/lib/errors/app-error";

export const cli = () =>
  cliCommand(
    "npx tsx scripts/analyze.ts",
    "The four code-level verdicts (Syntax, Signature, Body Change, Context) of one file, with evidence.",
  )
    .addOption(textOption("--original <file>", "the Python file before the change").makeOptionMandatory())
    .addOption(textOption("--modified <file>", "the Python file after the change").makeOptionMandatory())
    .addOption(textOption("--target <qualname>", "the function or method the task is about").makeOptionMandatory())
    .addOption(
      choiceOption("--mode <mode>", "what the task asked for", ["codegen", "move_source", "move_destination"]).default(
        "codegen",
      ),
    )
    .addOption(textOption("--source <file>", "move_destination: the file the function moved from"))
    .option("--json", "print the verdicts as JSON (true = violated, null = not applicable)");

async function readInput(flag: string, file: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch (error) {
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
  const original = decodePythonSource(await readInput("original", args.original)).text;
  const modified = await readInput("modified", args.modified);
  const moveSource = args.source ? decodePythonSource(await readInput("source", args.source)).text : null;
  const result = await evaluateCodeLevel({ original, modified, target: args.target, mode: args.mode, moveSource });
  io.stdout.write(args.json ? `${JSON.stringify(jsonReport(result))}\n` : textReport(result));
  return 0;
}

if (isEntryPoint(import.meta.url)) await runMain(main);
