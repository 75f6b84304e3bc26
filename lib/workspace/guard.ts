/**
 * The sandbox guard's rule (the `guard` mitigation arm): the write side of the boundary contract,
 * enforced rather than judged. A file may be written only if the task may change it, created
 * only if the task expects it, deleted only if the task expects that. The runner's bubblewrap
 * mounts enforce it for commands (lib/runner/guard-mounts.ts); the tools that write from the
 * runner's own process (the built-in editors, Code-KIT's write tools) ask `guardRefusal` first.
 * Kept apart from lib/benchmark so every layer that writes for an agent can import it.
 */
import path from "node:path";
import { AppError } from "@/lib/errors/app-error";
import type { WorkspaceRoot } from "./paths";

/** The contract's write side: workspace-relative POSIX paths. */
export interface GuardRules {
  mayChange: readonly string[];
  expectedCreate: readonly string[];
  expectedDelete: readonly string[];
}

export type GuardAction = "write" | "create" | "delete";

const PREFIX = "the sandbox guard refuses:";

/**
 * Why the guard refuses `action` on `rel` (relative to the workspace), or null when it allows it.
 * A file the task expects to create may afterwards be rewritten or removed again (an editor's
 * undo of its own create).
 */
export function guardRefusal(rules: GuardRules, rel: string, action: GuardAction): string | null {
  const created = rules.expectedCreate.includes(rel);
  switch (action) {
    case "write":
      return rules.mayChange.includes(rel) || created
        ? null
        : `${PREFIX} ${rel} is outside the files this task may change`;
    case "create":
      return created || rules.mayChange.includes(rel)
        ? null
        : `${PREFIX} ${rel} is not a file this task is expected to create`;
    case "delete":
      return rules.expectedDelete.includes(rel) || created
        ? null
        : `${PREFIX} ${rel} is not a file this task is expected to delete`;
  }
}

/**
 * The note a command's output gets under the guard when it failed the way the guard's mounts make
 * writes fail (EROFS, EBUSY), so the agent learns why and what it can still do; null otherwise.
 */
export function guardShellNote(output: string): string | null {
  if (!/Read-only file system|Device or resource busy/.test(output)) return null;
  return (
    "[The sandbox guard refuses changes outside this task's boundary: only the files the task may change can be " +
    "written, and only in place (a rename over them, as `sed -i` does, fails); only the files it is expected to " +
    "delete can be deleted; new files only where it is expected to create them.]"
  );
}

/**
 * Throws the guard's refusal (FORBIDDEN) unless `rules` (none: no guard) allow `action` on the
 * file at `abs`, a resolved path in the workspace: judged by its real path, so a link to another
 * file is judged as that file.
 */
export function assertGuardAllows(
  rules: GuardRules | null | undefined,
  root: WorkspaceRoot,
  abs: string,
  action: GuardAction,
): void {
  if (!rules) return;
  const refusal = guardRefusal(rules, path.relative(root.real, abs).split(path.sep).join("/"), action);
  if (refusal) throw new AppError("FORBIDDEN", refusal);
}
