import { MITIGATION_LABELS } from "@/lib/codekit/arms";
import { CODEKIT_TOOL_NAMES } from "@/lib/codekit/mitigation";
import type { AblationArmRow, AblationTable as Table, ArmChange } from "@/lib/dashboard/ablation";
import { PUBLISHED_ABLATION, PUBLISHED_ARMS } from "@/lib/dashboard/ablation-report";
import { formatPercent, formatPValue } from "@/lib/dashboard/format";
import { METRICS } from "@/lib/metrics/catalog";
import styles from "./ablation-table.module.css";

const points = (delta: number) => `${delta > 0 ? "+" : ""}${(delta * 100).toFixed(1)} pt`;

/** Δ against the baseline and McNemar's p under a rate; `lowerIsBetter` false for task completion. */
function Change({ change, lowerIsBetter = true }: { change: ArmChange | null; lowerIsBetter?: boolean }) {
  if (change === null || change.delta === null) return null;
  const better = lowerIsBetter ? change.delta < 0 : change.delta > 0;
  const worse = lowerIsBetter ? change.delta > 0 : change.delta < 0;
  return (
    <div
      className={`${styles.change} ${better ? styles.better : worse ? styles.worse : ""}`}
      title={`only the baseline ${change.onlyBaseline} / only this arm ${change.onlyArm} (discordant pairs); exact McNemar test`}
      data-testid="ablation-change"
    >
      {points(change.delta)}
      {change.pValue === null ? null : (
        <span className={change.pValue < 0.05 ? styles.significant : undefined}> p {formatPValue(change.pValue)}</span>
      )}
    </div>
  );
}

function Rate({ count, of, rate }: { count: number; of: number; rate: number | null }) {
  return rate === null ? <>–</> : <span title={`${count} of ${of}`}>{formatPercent(rate)}</span>;
}

function costOf(row: AblationArmRow): string {
  const { costUsd, costUnknownRuns } = row.usage;
  if (costUsd === null) return "unknown";
  return `$${costUsd.toFixed(4)}${costUnknownRuns > 0 ? ` (${costUnknownRuns} runs unknown)` : ""}`;
}

/** Arms as rows: the 11 rates, their average, task completion, model calls and cost; Δ and p against the baseline below each. */
export function AblationTable({ table }: { table: Table }) {
  return (
    <div className="table-wrap">
      <table className="grid" data-testid="ablation-table">
        <caption>
          {table.instances} instances ran by every arm{table.unpaired > 0 ? ` (${table.unpaired} left out)` : ""}.
          Violation rates over the instances every arm was decided on; under each, the change against {table.baseline}{" "}
          and the exact McNemar test on the discordant pairs.
        </caption>
        <thead>
          <tr>
            <th scope="col">Arm</th>
            <th scope="col" className="num">
              Runs
            </th>
            {METRICS.map((m) => (
              <th key={m.id} scope="col" className="num">
                {m.label}
              </th>
            ))}
            <th scope="col" className="num" title="mean of the metrics' rates, over the metrics with data">
              Average
            </th>
            <th scope="col" className="num" title="pass@1 over the instances whose completion every arm has">
              Task done
            </th>
            <th scope="col" className="num" title="the agent's model calls + the selector's">
              Model calls
            </th>
            <th scope="col" className="num">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row.arm} data-testid="ablation-row" data-arm={row.arm}>
              <th scope="row">{MITIGATION_LABELS[row.arm]}</th>
              <td className="num">{row.runs}</td>
              {METRICS.map((m) => (
                <td key={m.id} className="num" data-testid="ablation-cell" data-metric={m.id}>
                  <Rate {...row.cells[m.id]} />
                  <Change change={row.changes?.[m.id] ?? null} />
                </td>
              ))}
              <td className="num" data-testid="ablation-average">
                {row.average === null ? "–" : formatPercent(row.average)}
                {row.averageDelta === null ? null : <div className={styles.change}>{points(row.averageDelta)}</div>}
              </td>
              <td className="num" data-testid="ablation-task">
                <Rate {...row.task} />
                <Change change={row.taskChange} lowerIsBetter={false} />
              </td>
              <td className="num">
                {row.usage.agentCalls} + {row.usage.selectorCalls}
              </td>
              <td className="num">{costOf(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Our averages beside the study's, one row each, the study's labelled as published. */
export function PublishedReference({ table, label }: { table: Table; label: string }) {
  const ours = new Map(table.rows.map((r) => [r.arm, r.average]));
  return (
    <div className="table-wrap">
      <table className="grid" data-testid="ablation-reference">
        <caption>
          Average misbehavior per arm: ours, and the Code-KIT study&apos;s published figures (its agents and instances,
          Gemini-2.5-Flash) as a reference for the direction and size of the effect.
        </caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            {PUBLISHED_ARMS.map((arm) => (
              <th key={arm} scope="col" className="num">
                {MITIGATION_LABELS[arm]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr data-testid="reference-ours">
            <th scope="row">ours: {label}</th>
            {PUBLISHED_ARMS.map((arm) => {
              const average = ours.get(arm);
              return (
                <td key={arm} className="num">
                  {average === undefined ? "not run" : average === null ? "–" : formatPercent(average)}
                </td>
              );
            })}
          </tr>
          {PUBLISHED_ABLATION.map((row) => (
            <tr key={row.framework} data-testid="reference-published">
              <th scope="row">
                published: {row.framework} / {row.model}
              </th>
              {PUBLISHED_ARMS.map((arm) => {
                const value = row.averages[arm];
                return (
                  <td key={arm} className="num">
                    {value === undefined ? "–" : `${row.approximate.includes(arm) ? "about " : ""}${value.toFixed(2)}%`}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Per arm and Code-KIT tool: runs offered it / runs that called it (calls). */
export function ToolUseTable({ table }: { table: Table }) {
  return (
    <div className="table-wrap">
      <table className="grid" data-testid="ablation-tools">
        <caption>
          Code-KIT tools: runs whose plan offered the tool / runs that called it (calls), whatever name the agent called
          it by.
        </caption>
        <thead>
          <tr>
            <th scope="col">Arm</th>
            {CODEKIT_TOOL_NAMES.map((tool) => (
              <th key={tool} scope="col" className="num">
                <code>{tool}</code>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row.arm} data-testid="ablation-tools-row" data-arm={row.arm}>
              <th scope="row">{MITIGATION_LABELS[row.arm]}</th>
              {CODEKIT_TOOL_NAMES.map((tool) => {
                const use = row.tools[tool];
                return (
                  <td key={tool} className="num" data-testid="tool-cell" data-tool={tool}>
                    {use.offered} / {use.used} ({use.calls})
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
