"use client";
/**
 * Client components although they have no state of their own: a table after the first is drawn
 * in the browser when the reader scrolls near it, and the page data carries each table as its
 * numbers (about 30 kB a table at a million runs), where a server component's carried its
 * rendered cells, every title twice (90 kB a table, on top of the same cells in the HTML).
 */
import { METRICS } from "@/lib/metrics/catalog";
import type { OverviewTable, RateCell } from "@/lib/dashboard/overview";
import { formatPercent, withArm } from "@/lib/dashboard/format";
import { WhenVisible } from "@/components/charts/when-visible";

function cellTitle(label: string, cell: RateCell, noun: string): string {
  if (cell.rate === null || cell.interval === null) return `${label}: no decided runs`;
  const [low, high] = cell.interval;
  return `${label}: ${cell.count} of ${cell.of} runs ${noun} (${formatPercent(cell.rate)}; 95% CI ${formatPercent(low)}–${formatPercent(high)})`;
}

function Cell({ label, cell, noun, tone }: { label: string; cell: RateCell; noun: string; tone: "bad" | "good" }) {
  const title = cellTitle(label, cell, noun);
  return (
    <td
      className={`num heat heat-${tone}`}
      style={{ "--heat": cell.heat.toFixed(3) } as React.CSSProperties}
      title={title}
      aria-label={title}
      data-testid="overview-cell"
      data-count={cell.count}
      data-of={cell.of}
    >
      {cell.rate === null ? "–" : formatPercent(cell.rate)}
      {/* One text node, not three: the overview has hundreds of cells, each a share of the DOM to build and hydrate. */}
      {cell.rate === null ? null : <span className="cell-count">{`${cell.count}/${cell.of}`}</span>}
    </td>
  );
}

/** One paper-style table: rows framework (with its mitigation arm) x model, columns the family's metrics and task completion. */
export function OverviewTableView({ table }: { table: OverviewTable }) {
  const metrics = METRICS.filter((m) => table.metrics.includes(m.id));
  return (
    <div className="table-wrap">
      <table className="grid overview" data-testid={`overview-table-${table.family}`}>
        <caption>
          {table.label}{" "}
          <span className="muted">
            (% of decided runs that violated each metric; hover a cell for counts and the 95% interval)
          </span>
        </caption>
        <thead>
          <tr>
            <th scope="col">Framework</th>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Runs
            </th>
            {metrics.map((m) => (
              <th scope="col" key={m.id} className="num" title={`violated when ${m.violatedWhen}`}>
                {m.label}
              </th>
            ))}
            <th scope="col" className="num" title="mean violation rate over the metrics with data">
              Avg
            </th>
            <th
              scope="col"
              className="num"
              title="pass@1: completed runs of those whose completion is known (checked, or claimed by a run made elsewhere); runs not checkable are left out"
            >
              Task done
            </th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr
              key={row.key}
              data-testid="overview-row"
              data-framework={row.framework}
              data-model={row.model}
              data-arm={row.mitigation}
            >
              <th scope="row">{withArm(row.framework, row.mitigation)}</th>
              <td>{row.model}</td>
              <td className="num">{row.runs}</td>
              {metrics.map((m) => (
                <Cell key={m.id} label={m.label} cell={row.cells[m.id]} noun="violated" tone="bad" />
              ))}
              <td className="num">{row.average === null ? "–" : formatPercent(row.average)}</td>
              <Cell label="Task completion" cell={row.task} noun="completed" tone="good" />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** About the height of a table of `rows` rows (caption, header, two-line rows), held until it is drawn. */
const tableHeight = (rows: number) => 70 + 41 * rows;

/**
 * A family table below the first: drawn when the reader scrolls near it. At a million runs the
 * overview's three tables were 3,500 DOM nodes to parse and hydrate before the page answered a
 * click, a third of its load time each; the first screen shows the first table alone.
 */
export function LazyOverviewTableView({ table }: { table: OverviewTable }) {
  return (
    <WhenVisible minHeight={tableHeight(table.rows.length)} className="table-wrap" testId="table-placeholder">
      <OverviewTableView table={table} />
    </WhenVisible>
  );
}
