import Link from "next/link";
import type { RunListRow } from "@/lib/runs/types";
import { formatCost, formatDurationMs, formatTokens } from "@/lib/util/format";

export function RunsTable({ rows }: { rows: RunListRow[] }) {
  return (
    <div className="table-wrap">
      <table className="grid" data-testid="runs-table">
        <thead>
          <tr>
            <th>Run</th>
            <th>Instance</th>
            <th>Subtask</th>
            <th>Framework</th>
            <th>Model</th>
            <th>Status</th>
            <th className="num">Steps</th>
            <th className="num">Tokens</th>
            <th className="num">Cost</th>
            <th className="num">Duration</th>
            <th>Task done</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((run) => (
            <tr key={run.id} data-testid="run-row" data-run-id={run.id}>
              <td>
                <Link href={`/runs/${encodeURIComponent(run.id)}`}>
                  <code>{run.id}</code>
                </Link>
                {run.scripted ? (
                  <span className="badge" title="Produced by a scripted mock model, not a real one">
                    scripted
                  </span>
                ) : null}
              </td>
              <td title={run.instanceId}>{run.instanceId}</td>
              <td>{run.subtaskId}</td>
              <td>{run.framework}</td>
              <td>{run.model}</td>
              <td>
                <span className={`status status-${run.status}`}>{run.status}</span>{" "}
                <span className="muted">{run.exitReason}</span>
              </td>
              <td className="num">{run.stepCount}</td>
              <td className="num">{formatTokens(run.inputTokens + run.outputTokens)}</td>
              <td className="num">{formatCost(run.costUsd)}</td>
              <td className="num">{formatDurationMs(run.durationMs)}</td>
              <td>{run.taskCompleted === null ? "–" : run.taskCompleted ? "yes" : "no"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
