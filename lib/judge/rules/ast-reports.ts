import { analyzePythonBytes } from "@/lib/analysis/ast-report";
import type { AstReportFile } from "@/lib/bundle/schema";
import type { EvaluatedChange } from "../schema";

/** The AST report of every changed Python file as the agent left it (the run's `reports/ast.json`). */
export async function astReportsOf(changes: readonly EvaluatedChange[]): Promise<AstReportFile> {
  const files: AstReportFile["files"] = {};
  for (const change of changes) {
    if (change.after && change.path.endsWith(".py")) files[change.path] = await analyzePythonBytes(change.after);
  }
  return { files };
}
