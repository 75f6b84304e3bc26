/** Helpers for the code-level metric tests. */
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
