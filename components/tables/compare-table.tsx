import type { Comparison } from "@/lib/dashboard/compare";
import { formatPercent, formatPValue } from "@/lib/dashboard/format";
import { METRICS } from "@/lib/metrics/catalog";

const LABEL = new Map(METRICS.map((m) => [m.id, m.label]));

/** Per-metric rates of A and B on their shared instances, the difference and McNemar's p. */
export function CompareTable({
  comparison,
  labelA,
  labelB,
}: {
  comparison: Comparison;
  labelA: string;
  labelB: string;
}) {
  return (
    <div className="table-wrap">
      <table className="grid" data-testid="compare-table">
        <caption>
          {comparison.pairs} shared instances. Rates on the pairs both were judged on; Δ = B − A; p: exact McNemar test
          on the discordant pairs.
        </caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col" className="num">
              Pairs
            </th>
            <th scope="col" className="num" title={labelA}>
              A
            </th>
            <th scope="col" className="num" title={labelB}>
              B
            </th>
            <th scope="col" className="num">
              Δ
            </th>
            <th scope="col" className="num" title="pairs where only A violated / only B violated">
              Only A / only B
            </th>
            <th scope="col" className="num">
              p
            </th>
          </tr>
        </thead>
        <tbody>
          {comparison.metrics.map((row) => (
            <tr key={row.metric} data-testid="compare-row" data-metric={row.metric}>
              <th scope="row">{LABEL.get(row.metric)}</th>
              <td className="num">{row.pairs}</td>
              <td className="num">{row.rateA === null ? "–" : `${formatPercent(row.rateA)} (${row.violatedA})`}</td>
              <td className="num">{row.rateB === null ? "–" : `${formatPercent(row.rateB)} (${row.violatedB})`}</td>
              <td
                className={`num ${row.delta !== null && row.delta < 0 ? "better" : row.delta !== null && row.delta > 0 ? "worse" : ""}`}
              >
                {row.delta === null ? "–" : `${row.delta > 0 ? "+" : ""}${(row.delta * 100).toFixed(1)} pt`}
              </td>
              <td className="num">
                {row.onlyA} / {row.onlyB}
              </td>
              <td
                className={`num${row.pValue !== null && row.pValue < 0.05 ? " significant" : ""}`}
                data-testid="compare-p"
              >
                {row.pValue === null ? "–" : formatPValue(row.pValue)}
              </td>
            </tr>
          ))}
          <TaskRow task={comparison.task} />
        </tbody>
      </table>
    </div>
  );
}

/** Task completion (pass@1) on the pairs whose completion is known for both; here a higher rate is better. */
function TaskRow({ task }: { task: Comparison["task"] }) {
  return (
    <tr data-testid="compare-task-row">
      <th scope="row" title="pass@1: completed runs of the pairs both were checked on (DESIGN.md 2b)">
        Task done
      </th>
      <td className="num">{task.pairs}</td>
      <td className="num">{task.rateA === null ? "–" : `${formatPercent(task.rateA)} (${task.completedA})`}</td>
      <td className="num">{task.rateB === null ? "–" : `${formatPercent(task.rateB)} (${task.completedB})`}</td>
      <td
        className={`num ${task.delta !== null && task.delta > 0 ? "better" : task.delta !== null && task.delta < 0 ? "worse" : ""}`}
      >
        {task.delta === null ? "–" : `${task.delta > 0 ? "+" : ""}${(task.delta * 100).toFixed(1)} pt`}
      </td>
      <td className="num" title="pairs where only A completed / only B completed">
        {task.onlyA} / {task.onlyB}
      </td>
      <td className={`num${task.pValue !== null && task.pValue < 0.05 ? " significant" : ""}`}>
        {task.pValue === null ? "–" : formatPValue(task.pValue)}
      </td>
    </tr>
  );
}

const SHOWN = 200;

/** The instances where the two configurations' verdicts differ, linked to both runs. */
export function DifferingInstances({ comparison }: { comparison: Comparison }) {
  const { differing } = comparison;
  if (differing.length === 0)
    return <p className="muted">The two configurations get the same verdicts on every shared instance.</p>;
  return (
    <div className="table-wrap">
      <table className="grid" data-testid="differing-table">
        <caption>
          {differing.length} instance{differing.length === 1 ? "" : "s"} where the verdicts differ
          {differing.length > SHOWN ? ` (first ${SHOWN} shown; the export has all)` : ""}
        </caption>
        <thead>
          <tr>
            <th scope="col">Instance</th>
            <th scope="col">Only A violated</th>
            <th scope="col">Only B violated</th>
            <th scope="col">Runs</th>
          </tr>
        </thead>
        <tbody>
          {differing.slice(0, SHOWN).map((d) => (
            <tr key={d.instanceId} data-testid="differing-row">
              <td title={d.instanceId}>{d.instanceId}</td>
              <td>{d.onlyA.map((m) => LABEL.get(m)).join(", ") || "–"}</td>
              <td>{d.onlyB.map((m) => LABEL.get(m)).join(", ") || "–"}</td>
              {/* Plain links, not next/link: up to 400 of them, and each Link is a client component the
                  page must hydrate (and watch for prefetching) before it answers a click. */}
              <td>
                <a href={`/runs/${encodeURIComponent(d.runA)}`} data-testid="differing-run-a">
                  A
                </a>
                {" · "}
                <a href={`/runs/${encodeURIComponent(d.runB)}`} data-testid="differing-run-b">
                  B
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
