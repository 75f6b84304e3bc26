/**
 * The mitigation arms an agent can run with. The arms are the study's ablation (docs/codekit.md)
 * plus one of ours:
 * - `none`: the agent as it is;
 * - `rules`: every Code-KIT rule in its instructions;
 * - `tools`: the five Code-KIT tools, no rules;
 * - `codekit`: the selector's minimal set of rules and tools for the task;
 * - `guard`: Code-KIT, and the sandbox enforces the boundary contract (files outside may-change
 *   read-only, no deletion outside expected-delete, new files only where expected-create allows).
 * No imports at all: client components (the runs table) name a run's arm without loading zod,
 * which validating a run's record of its arm needs (./mitigation.ts).
 */
export const MITIGATIONS = ["none", "rules", "tools", "codekit", "guard"] as const;
export type Mitigation = (typeof MITIGATIONS)[number];

export const MITIGATION_LABELS: Record<Mitigation, string> = {
  none: "none (vanilla)",
  rules: "rules in the prompt",
  tools: "all five tools",
  codekit: "Code-KIT (selector)",
  guard: "Code-KIT + sandbox guard",
};
