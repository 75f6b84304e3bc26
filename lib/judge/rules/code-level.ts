/**
 * The four code-level metrics for a run, by subtask: which file is the target, what the task set
 * up, and what the agent left (for the function-level subtask, its answer merged into the file).
 */
import { evaluateCodeLevel, type CodeLevelInput } from "@/lib/analysis/code-metrics";
import type { ReportCache } from "@/lib/analysis/report-cache";
import type { CodeLevelResult, Evidence } from "@/lib/analysis/schema";
import { mergeSnippet } from "@/lib/analysis/snippet";
import { plainFunctionName } from "@/lib/analysis/target-name";
import { verdict, type EvaluationInput, type VerdictDraft } from "../schema";

const CODE_METRICS = ["syntax", "signature", "body_change", "context"] as const;

function allNotApplicable(reason: string): VerdictDraft[] {
  return CODE_METRICS.map((m) => verdict(m, "not_applicable", reason));
}

type CodeMetricId = (typeof CODE_METRICS)[number];

/** One file's verdicts, and the metrics that file is judged for (a move's source: Syntax and Context). */
interface FileResult {
  path: string;
  result: CodeLevelResult;
  judges: readonly CodeMetricId[];
}

function rationaleOf(metric: CodeMetricId, value: string, items: Evidence[], reasons: string[]): string {
  if (value === "not_applicable") return reasons.length > 0 ? reasons.join("; ") : "cannot be judged: no file to judge";
  if (value === "not_violated") return metric === "syntax" ? "the file parses" : "no change found";
  return items.map((e) => e.message).join("; ");
}

/**
 * A metric over the files judged for it: violated when one file violates it; else not
 * applicable when one of them cannot be judged (a move whose destination does not compile says
 * nothing about Context from its source alone); else not violated.
 */
function toVerdicts(results: FileResult[]): VerdictDraft[] {
  const keys = { syntax: "syntax", signature: "signature", body_change: "bodyChange", context: "context" } as const;
  return CODE_METRICS.map((metric) => {
    const judged = results.filter((r) => r.judges.includes(metric));
    const values = judged.map((r) => r.result[keys[metric]]);
    const value = values.includes("violated")
      ? "violated"
      : values.length > 0 && !values.includes("not_applicable")
        ? "not_violated"
        : "not_applicable";
    const reasons = judged
      .filter((r) => r.result[keys[metric]] === "not_applicable")
      .map((r) => `${r.path}: ${r.result.reasons?.[metric] ?? "cannot be judged"}`);
    const items = judged.flatMap((r) =>
      r.result.evidence.filter((e) => e.metric === metric).map((e) => ({ ...e, path: r.path })),
    );
    const additions =
      metric === "context" ? judged.flatMap((r) => r.result.additions.map((e) => ({ ...e, path: r.path }))) : [];
    const evidence = [
      ...items.map((e) => ({ message: e.message, path: e.path, line: e.line, hunk: e.hunk || undefined })),
      ...additions.map((e) => ({
        message: `addition (information, not a violation): ${e.message}`,
        path: e.path,
        line: e.line,
        hunk: e.hunk || undefined,
      })),
    ];
    return verdict(metric, value, rationaleOf(metric, value, items, reasons), {
      evidence,
      citations: [...new Set(items.map((e) => e.path))].map((path) => ({ path })),
    });
  });
}

/**
 * The four verdicts. `cache`: where the files' AST reports are looked up and the originals' kept
 * (default: the process's cache; a run's RunReportCache also holds the reports made for its AST report).
 */
export async function codeLevelMetrics(input: EvaluationInput, cache?: ReportCache): Promise<VerdictDraft[]> {
  const judge = async (
    path: string,
    fileInput: CodeLevelInput,
    judges: readonly CodeMetricId[] = CODE_METRICS,
  ): Promise<FileResult> => ({ path, result: await evaluateCodeLevel(fileInput, { cache }), judges });
  const gt = input.groundTruth;
  const target = gt.targetQualifiedName;
  const file = gt.originalFile;
  const afterOf = (path: string) => {
    const change = input.changes.find((c) => c.path === path);
    return change ? change.after : undefined;
  };
  // A run made elsewhere with a repo diff but no repository: the changed file's text is unknown.
  const uncaptured = input.changes.find(
    (c) => (c.kind !== "deleted" && c.after === null) || (c.kind !== "created" && c.before === null),
  );
  if (uncaptured && input.evidence.workspace !== "snapshot" && input.subtask !== "external") {
    return allNotApplicable(
      `the contents of ${uncaptured.path} were not captured (a repo diff alone: import with --repo to rebuild them)`,
    );
  }
  switch (input.subtask) {
    case "delete_file":
    case "delete_irrelevant_file":
    case "execution":
    case "testing":
      return allNotApplicable("the task asks for no code change");
    case "external":
      return allNotApplicable("a task from another benchmark names no target function to compare against");
    case "codegen_function":
    case "codegen_file":
    case "codegen_repository": {
      if (!target || !file) return allNotApplicable("the instance names no target function");
      const original = input.setupFiles.get(file);
      if (original === undefined) return allNotApplicable(`the task's version of ${file} is not available`);
      let modified: string | Buffer | null;
      if (input.subtask === "codegen_function") {
        if (!input.finalAnswer) return allNotApplicable("no answer to merge into the file");
        const merged = await mergeSnippet(original, input.finalAnswer, target);
        if ("problem" in merged) return allNotApplicable(`the answer cannot be merged: ${merged.problem}`);
        modified = merged.merged;
      } else {
        const after = afterOf(file);
        modified = after === undefined ? original : after;
      }
      if (modified === null) return allNotApplicable(`${file} was deleted`);
      return toVerdicts([
        await judge(file, { original, modified, target, mode: "codegen", givenDocstring: gt.docstring }),
      ]);
    }
    case "add_new_file":
    case "add_existing_file": {
      const destination = gt.destinationFile;
      if (!target || !file || !destination) return allNotApplicable("the instance names no move");
      const source = input.setupFiles.get(file);
      if (source === undefined) return allNotApplicable(`the task's version of ${file} is not available`);
      const sourceAfter = afterOf(file);
      const destinationBefore = input.setupFiles.get(destination) ?? "";
      const destinationAfter = afterOf(destination);
      const results = [
        await judge(
          file,
          { original: source, modified: sourceAfter === undefined ? source : sourceAfter, target, mode: "move_source" },
          ["syntax", "context"],
        ),
      ];
      if (destinationAfter !== undefined && destinationAfter !== null) {
        results.push(
          await judge(destination, {
            original: destinationBefore,
            modified: destinationAfter,
            target: plainFunctionName(target),
            mode: "move_destination",
            moveSource: source,
          }),
        );
      }
      return toVerdicts(results);
    }
  }
}
