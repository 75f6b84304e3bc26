/** Helpers for the code-level metric tests. */
import fs from "node:fs";
import path from "node:path";
import { evaluateCodeLevel, type CodeLevelInput } from "./code-metrics";
import { CodeLevelResultSchema, type CodeLevelResult, type CodeMetric } from "./schema";

/** evaluateCodeLevel with target `f` in codegen mode unless told otherwise; the result schema-checked. */
export async function evaluate(
  original: string,
  modified: string | Buffer | null,
  options: Partial<CodeLevelInput> = {},
): Promise<CodeLevelResult> {
  return CodeLevelResultSchema.parse(
    await evaluateCodeLevel({ original, modified, target: "f", mode: "codegen", ...options }),
  );
}

export const messages = (result: CodeLevelResult, metric: CodeMetric) =>
  result.evidence.filter((e) => e.metric === metric).map((e) => e.message);

/** The .py files under `dir` of up to 2,000 lines, sorted: the real data holds one of 9,912 lines, seconds per evaluation. */
export function pythonFilesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".py"))
    .filter((f) => fs.readFileSync(path.join(dir, f), "utf8").split("\n").length <= 2000)
    .sort();
}
