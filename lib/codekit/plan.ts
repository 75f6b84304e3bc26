/**
 * What an arm gives one run: the rules for its instructions and the tools for its tool set. The
 * `codekit` and `guard` arms ask the selector per task; `rules` and `tools` give everything of one
 * kind; `none` gives nothing (no plan).
 */
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { formatGuidelines, guidelinesFor, latestGuidelineVersion } from "./guidelines";
import type { Mitigation } from "./arms";
import { CODEKIT_TOOL_NAMES, type MitigationPlan } from "./mitigation";
import { selectCodekit, type SelectorModel, type SelectorTask } from "./selector";

export async function planMitigation(
  arm: Mitigation,
  task: SelectorTask,
  selector: SelectorModel | null,
): Promise<MitigationPlan | null> {
  const latest = (metrics: readonly (typeof METRIC_IDS)[number][]) =>
    metrics.map((metric) => ({ metric, version: latestGuidelineVersion(metric) }));
  switch (arm) {
    case "none":
      return null;
    case "rules":
      return { arm, rules: latest(METRIC_IDS), tools: [], guard: false, selector: null };
    case "tools":
      return { arm, rules: [], tools: [...CODEKIT_TOOL_NAMES], guard: false, selector: null };
    case "codekit":
    case "guard": {
      const selection = await selectCodekit(task, selector);
      return {
        arm,
        rules: latest(selection.rules),
        tools: selection.tools,
        guard: arm === "guard",
        selector: selection.record,
      };
    }
  }
}

/**
 * The instructions a plan adds to the agent's own: its rules, and a pointer to its tools. Built-in
 * agents append it to their system prompt; the CLIs read it from their project instructions file.
 */
export function mitigationInstructions(plan: MitigationPlan | null): string | null {
  if (!plan || (plan.rules.length === 0 && plan.tools.length === 0)) return null;
  const parts: string[] = [];
  if (plan.rules.length > 0) {
    const rules = plan.rules.map(
      ({ metric, version }) =>
        guidelinesFor({ metrics: [metric], version })?.[0] ?? guidelinesFor({ metrics: [metric] })![0]!,
    );
    parts.push(["Rules for this task (Code-KIT):", formatGuidelines(rules)].join("\n"));
  }
  if (plan.tools.length > 0)
    parts.push(
      `Code-KIT tools are available for this task: ${plan.tools.join(", ")}. Prefer them to editing by hand or through the shell: they check their work with the parser and refuse changes outside their scope.`,
    );
  if (plan.guard)
    parts.push(
      "The sandbox enforces the task's boundaries: files the task does not let you change are read-only, and deleting or creating files outside what the task asks for fails.",
    );
  return parts.join("\n\n");
}
