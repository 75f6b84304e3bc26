/**
 * A step's marks against the boundary contract (computed by contract-marks.ts on the server).
 * Kept free of imports: the trajectory viewer in the browser needs these, not the classifier.
 */
export type MarkKind =
  | "required_read"
  | "read_outside_workspace"
  | "allowed_write"
  | "write_outside_contract"
  | "write_outside_workspace"
  | "expected_delete"
  | "delete_outside_contract"
  | "delete_outside_workspace";

export type MarkSeverity = "ok" | "warn" | "violation";

export interface ContractMark {
  kind: MarkKind;
  severity: MarkSeverity;
  /** Workspace-relative when inside the workspace, else as the agent wrote it. */
  path: string;
}

export const MARK_LABELS: Record<MarkKind, string> = {
  required_read: "required read",
  read_outside_workspace: "read outside the workspace",
  allowed_write: "allowed write",
  write_outside_contract: "write outside the contract",
  write_outside_workspace: "write outside the workspace",
  expected_delete: "expected delete",
  delete_outside_contract: "delete outside the contract",
  delete_outside_workspace: "delete outside the workspace",
};

/** The worst severity among a step's marks, or null when it has none. */
export function worstSeverity(marks: readonly ContractMark[]): MarkSeverity | null {
  if (marks.some((m) => m.severity === "violation")) return "violation";
  if (marks.some((m) => m.severity === "warn")) return "warn";
  return marks.length > 0 ? "ok" : null;
}
