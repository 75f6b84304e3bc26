/**
 * What is shown beside an ablation table: the study's published averages (a reference, never
 * ours), and the table as flat export rows and as text for the CLI.
 */
import type { Mitigation } from "@/lib/codekit/arms";
import { CODEKIT_TOOL_NAMES } from "@/lib/codekit/mitigation";
import { METRIC_IDS, METRICS } from "@/lib/metrics/catalog";
import type { AblationTable, ArmChange } from "./ablation";
import { formatPercent, formatPValue } from "./format";

export interface PublishedAblationRow {
  framework: string;
  model: string;
  /** Average misbehavior in percent, per arm the study ran. */
  averages: Partial<Record<Mitigation, number>>;
  /** Arms whose figure the study gives only approximately. */
  approximate: Mitigation[];
}

/**
 * The Code-KIT study's average misbehavior per arm (vanilla, rules in the prompt, all five tools,
 * Code-KIT with its selector), Gemini-2.5-Flash; docs/codekit.md cites them. A reference for the
 * direction and size of the effect, measured on the study's agents and instances, not ours.
 */
export const PUBLISHED_ABLATION: readonly PublishedAblationRow[] = [
  {
    framework: "smolagents",
    model: "Gemini-2.5-Flash",
    averages: { none: 12.77, rules: 13.02, tools: 10.54, codekit: 6.11 },
    approximate: [],
  },
  {
    framework: "OpenHands",
    model: "Gemini-2.5-Flash",
    averages: { none: 18.19, rules: 17.04, tools: 15.8, codekit: 12.31 },
    approximate: ["tools"],
  },
];

/** The arms the study ran, in its order. */
export const PUBLISHED_ARMS: readonly Mitigation[] = ["none", "rules", "tools", "codekit"];

type ExportValue = string | number | null;

const EXPORT_COLUMNS = ["count", "of", "rate", "delta_vs_baseline", "only_baseline", "only_arm", "mcnemar_p"] as const;
type ExportColumns = Partial<Record<(typeof EXPORT_COLUMNS)[number], number | null>>;

function exportRow(arm: Mitigation, kind: string, name: string, values: ExportColumns): Record<string, ExportValue> {
  return { arm, kind, name, ...Object.fromEntries(EXPORT_COLUMNS.map((column) => [column, values[column] ?? null])) };
}

const changeColumns = (change: ArmChange | null): ExportColumns => ({
  delta_vs_baseline: change?.delta,
  only_baseline: change?.onlyBaseline,
  only_arm: change?.onlyArm,
  mcnemar_p: change?.pValue,
});

/**
 * One line per (arm, metric), then the arm's average and task completion, then one per Code-KIT
 * tool (count = runs that used it, of = runs offered it, rate = its calls).
 */
export function ablationExportRows(table: AblationTable): Record<string, ExportValue>[] {
  return table.rows.flatMap((row) => [
    ...METRIC_IDS.map((metric) =>
      exportRow(row.arm, "metric", metric, { ...row.cells[metric], ...changeColumns(row.changes?.[metric] ?? null) }),
    ),
    exportRow(row.arm, "average", "average_misbehavior", { rate: row.average, delta_vs_baseline: row.averageDelta }),
    exportRow(row.arm, "task", "task_completion", { ...row.task, ...changeColumns(row.taskChange) }),
    ...CODEKIT_TOOL_NAMES.map((tool) => {
      const use = row.tools[tool];
      return exportRow(row.arm, "tool", tool, { count: use.used, of: use.offered, rate: use.calls });
    }),
  ]);
}

const pct = (rate: number | null) => (rate === null ? "–" : formatPercent(rate));
const points = (delta: number | null) =>
  delta === null ? "" : ` (${delta > 0 ? "+" : ""}${(delta * 100).toFixed(1)} pt)`;

/** The table as the CLI prints it: one line per arm, then each metric's rates with McNemar's p. */
export function ablationTextLines(table: AblationTable): string[] {
  const lines = [
    `${table.instances} instance(s) ran by every arm (${table.unpaired} left out: not run by every arm); baseline ${table.baseline}`,
  ];
  for (const row of table.rows) {
    const cost = row.usage.costUsd === null ? "cost unknown" : `$${row.usage.costUsd.toFixed(4)}`;
    lines.push(
      `  ${row.arm.padEnd(8)} average ${pct(row.average)}${points(row.averageDelta)}, task completion ${pct(row.task.rate)}${points(row.taskChange?.delta ?? null)}, ${row.usage.agentCalls} agent + ${row.usage.selectorCalls} selector model calls, ${cost}`,
    );
  }
  lines.push("  per metric (rate per arm; p: exact McNemar test against the baseline):");
  for (const metric of METRICS) {
    const cells = table.rows.map((row) => {
      const p = row.changes?.[metric.id]?.pValue ?? null;
      return `${row.arm} ${pct(row.cells[metric.id].rate)}${p === null ? "" : ` p=${formatPValue(p)}`}`;
    });
    lines.push(`    ${metric.label.padEnd(22)} ${cells.join(" | ")}`);
  }
  if (table.scripted)
    lines.push(
      "  These runs are scripted: the mock model's script decides these effects; they say nothing about a real model.",
    );
  return lines;
}
