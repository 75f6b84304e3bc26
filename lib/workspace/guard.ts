/**
 * The sandbox guard's rule (the `guard` mitigation arm): the write side of the boundary contract,
 * enforced rather than judged. A file may be written only if the task may change it, created
 * only if the task expects it, deleted only if the task expects that. The runner's bubblewrap
 * mounts enforce it for commands (lib/runner/guard-mounts.ts); the tools that write from the
 * runner's own process (the built-in editors, Code-KIT's write tools) ask `guardRefusal` first.
 * Kept apart from lib/benchmark so every layer that writes for an agent can import it.
 */
import path from "node:path";

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

/** The workspace-relative POSIX path of `abs` (a real path under `rootReal`). */
export function guardPathOf(rootReal: string, abs: string): string {
  return path.relative(rootReal, abs).split(path.sep).join("/");
}
