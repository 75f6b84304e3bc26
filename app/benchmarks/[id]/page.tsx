import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { requireReader } from "@/app/session";
import { getBenchmarkSummary } from "@/db/queries/benchmarks";
import { FAMILY_LABELS } from "@/lib/benchmark/subtasks";
import { safeDecode } from "@/lib/util/decode";

export default async function BenchmarkPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  await requireReader("dashboard", `/benchmarks/${id}`);
  const decoded = safeDecode(id);
  const summary = decoded === null ? null : getBenchmarkSummary(getAppDb(), decoded);
  if (!summary) notFound();
  const dropped = (summary.config.dropped as { namespace: string; reason: string }[] | undefined) ?? [];
  const mismatches = (summary.config.mismatches as { namespace: string; problem: string }[] | undefined) ?? [];
  const base = `/benchmarks/${encodeURIComponent(summary.id)}/instances`;
  return (
    <section>
      <h1>Benchmark {summary.name}</h1>
      <p className="muted">
        {summary.source}
        {summary.config.metadataOnly ? " (metadata only: no workspaces)" : ""} · seed {summary.seed ?? "–"} ·{" "}
        {summary.total} instances · built {summary.createdAt.slice(0, 10)}
      </p>
      <div className="table-wrap">
        <table className="grid" data-testid="subtasks-table">
          <thead>
            <tr>
              <th>Family</th>
              <th>Subtask</th>
              <th className="num">Instances</th>
              <th className="num">Evaluation split</th>
            </tr>
          </thead>
          <tbody>
            {summary.subtasks.map((s) => (
              <tr key={s.id} data-testid="subtask-row" data-subtask={s.id}>
                <td>{FAMILY_LABELS[s.family as keyof typeof FAMILY_LABELS] ?? s.family}</td>
                <td>
                  <Link href={`${base}?subtask=${s.id}`}>{s.label}</Link>
                </td>
                <td className="num" data-testid="subtask-count">
                  {s.instances}
                </td>
                <td className="num">
                  <Link href={`${base}?subtask=${s.id}&split=eval`}>{s.inSplit}</Link>
                </td>
              </tr>
            ))}
            <tr>
              <td colSpan={2}>
                <strong>Total</strong>
              </td>
              <td className="num">
                <strong>{summary.total}</strong>
              </td>
              <td className="num">{summary.subtasks.reduce((n, s) => n + s.inSplit, 0)}</td>
            </tr>
          </tbody>
        </table>
      </div>

      <h2>Repositories</h2>
      {summary.snapshots.length === 0 ? (
        <p className="muted">No repository snapshots (built from metadata only).</p>
      ) : (
        <ul className="plain">
          {summary.snapshots.map((s) => (
            <li key={s.projectPath}>
              <code>{s.projectPath}</code>{" "}
              <span className="muted">
                {s.fileCount} files, {(s.totalBytes / 1024).toFixed(0)} KiB
              </span>
            </li>
          ))}
        </ul>
      )}

      <h2>Dropped samples ({dropped.length})</h2>
      <ul className="plain" data-testid="dropped-list">
        {dropped.map((d) => (
          <li key={d.namespace}>
            <code>{d.namespace}</code>: {d.reason}
          </li>
        ))}
      </ul>
      <h2>Position mismatches ({mismatches.length})</h2>
      <ul className="plain">
        {mismatches.map((m) => (
          <li key={m.namespace}>
            <code>{m.namespace}</code>: {m.problem}
          </li>
        ))}
      </ul>
    </section>
  );
}
