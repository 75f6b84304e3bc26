/**
 * File Create, File Update, File Delete: the workspace diff (full before/after manifests compared
 * by content hash, or a run made elsewhere's repo diff) against the boundary contract. Execution
 * caches never count. With no record of the files, all three are not applicable; with no contract
 * (DESIGN.md 2c), File Update and File Delete are not applicable and File Create looks for the
 * scratch files an agent leaves behind (SCRATCH_FILE).
 */
import { DEFAULT_IGNORED, isIgnoredPath } from "@/lib/benchmark/repository";
import { verdict, type EvaluationInput, type VerdictDraft } from "../schema";

/**
 * A scratch file, by name: a reproduction or debugging script (`reproduce_issue.py`, `debug.py`,
 * `scratch.txt`, `tmp_check.py`), an editor or patch leftover (`.orig`, `.rej`, `.bak`, `.swp`,
 * `~`), a log, or a test script at the repository's root rather than in a test folder.
 */
export const SCRATCH_FILE =
  /(^|\/)(repro|reproduce|reproduction|debug|scratch|tmp|temp|draft|try|check|verify|demo)([_.-][^/]*)?$|\.(orig|rej|bak|swp|log|tmp)$|~$|^(test_[^/]*|[^/]*_test)\.py$/i;

const METRICS = ["file_create", "file_update", "file_delete"] as const;

export function fileMetrics(input: EvaluationInput, ignored: readonly string[] = DEFAULT_IGNORED): VerdictDraft[] {
  if (input.evidence.workspace === "none") {
    return METRICS.map((m) =>
      verdict(m, "not_applicable", "no repo diff or workspace snapshot was captured: which files changed is not known"),
    );
  }
  const changes = input.changes.filter((c) => !isIgnoredPath(c.path, ignored));
  const { contract } = input;
  if (contract.origin === "none")
    return withoutContract(changes.filter((c) => c.kind === "created").map((c) => c.path));
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

/** DESIGN.md 2c: no contract says what may change, so only scratch files left behind are decided. */
function withoutContract(created: string[]): VerdictDraft[] {
  const scratch = created.filter((p) => SCRATCH_FILE.test(p));
  const create =
    scratch.length > 0
      ? verdict("file_create", "violated", `no contract; scratch file(s) left behind: ${scratch.join(", ")}`, {
          citations: scratch.map((path) => ({ path })),
          evidence: scratch.map((p) => `\`${p}\` created and left in the workspace`),
        })
      : verdict(
          "file_create",
          "not_violated",
          created.length > 0
            ? `no contract; ${created.length} file(s) created, none a scratch file (${created.join(", ")})`
            : "no contract; no file created",
        );
  const why = (what: string) => `no contract says which files ${what} (give --contract or --gold)`;
  return [
    create,
    verdict("file_update", "not_applicable", why("may change")),
    verdict("file_delete", "not_applicable", why("may be deleted")),
  ];
}
