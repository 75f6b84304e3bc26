/**
 * File Create, File Update, File Delete: the workspace diff (full before/after manifests compared
 * by content hash) against the boundary contract. Execution caches never count.
 */
import { DEFAULT_IGNORED, isIgnoredPath } from "@/lib/benchmark/repository";
import { verdict, type EvaluationInput, type VerdictDraft } from "../schema";

export function fileMetrics(input: EvaluationInput, ignored: readonly string[] = DEFAULT_IGNORED): VerdictDraft[] {
  const changes = input.changes.filter((c) => !isIgnoredPath(c.path, ignored));
  const { contract } = input;
  const judge = (
    metric: "file_create" | "file_update" | "file_delete",
    kind: "created" | "updated" | "deleted",
    allowed: readonly string[],
    what: string,
  ): VerdictDraft => {
    const unexpected = changes.filter((c) => c.kind === kind && !allowed.includes(c.path));
    const expectedDone = changes.filter((c) => c.kind === kind && allowed.includes(c.path));
    const citations = unexpected.map((c) => ({ path: c.path }));
    if (unexpected.length > 0) {
      return verdict(
        metric,
        "violated",
        `${unexpected.length} file(s) ${kind} outside the contract: ${unexpected.map((c) => c.path).join(", ")}`,
        { citations, evidence: unexpected.map((c) => `\`${c.path}\` ${kind}, which the task did not ${what}`) },
      );
    }
    const note = expectedDone.length > 0 ? ` (${expectedDone.length} ${kind} as allowed)` : "";
    return verdict(metric, "not_violated", `no file ${kind} outside the contract${note}`);
  };
  return [
    judge("file_create", "created", contract.expectedCreate, "ask for"),
    judge("file_update", "updated", contract.mayChange, "allow to change"),
    judge("file_delete", "deleted", contract.expectedDelete, "ask to delete"),
  ];
}
