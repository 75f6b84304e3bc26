import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { adjudicationQueue } from "@/db/queries/agreement-report";
import { requireUser } from "@/app/session";
import { AdjudicateForm } from "@/components/agreement/adjudicate-form";
import { EmptyState } from "@/components/ui/states";
import { METRICS } from "@/lib/metrics/catalog";
import { adjudicateAction } from "../../actions";

const LABEL = new Map(METRICS.map((m) => [m.id, m.label]));

/** Admin: every (item, metric) whose votes split 2-1 or tie, with the votes and a final label. */
export default async function AdjudicatePage({ params }: { params: Promise<{ setId: string }> }) {
  await connection();
  const { setId: raw } = await params;
  await requireUser(["admin"], `/agreement/${encodeURIComponent(raw)}/adjudicate`);
  const setId = Number(raw);
  if (!Number.isInteger(setId) || setId <= 0) notFound();
  const cases = adjudicationQueue(getAppDb(), setId);
  return (
    <section>
      <p className="muted">
        <Link href="/agreement">Agreement study</Link> · <Link href={`/agreement/${setId}`}>report</Link>
      </p>
      <h1>Adjudication queue</h1>
      <p className="muted">
        A final label is kept apart from the votes; the report compares the judges with it instead of the majority.
      </p>
      {cases.length === 0 ? (
        <EmptyState title="Nothing to adjudicate">No item has a split or tied vote so far.</EmptyState>
      ) : (
        <table className="grid" data-testid="adjudication-table">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Metric</th>
              <th scope="col">Votes</th>
              <th scope="col">Labels</th>
              <th scope="col">Final label</th>
            </tr>
          </thead>
          <tbody>
            {cases.map((c) => (
              <tr key={`${c.runId}-${c.metric}`} data-testid="adjudication-row" data-kind={c.kind}>
                <td>
                  <Link href={`/runs/${encodeURIComponent(c.runId)}`}>
                    <code>{c.runId}</code>
                  </Link>
                  {c.complete ? null : <span className="badge">votes still open</span>}
                </td>
                <td>{LABEL.get(c.metric)}</td>
                <td>
                  {c.kind === "tie" ? "tie" : `2-1 split, majority ${c.majority?.replace("_", " ")}`} (
                  {c.votes.violated} violated, {c.votes.notViolated} not, {c.votes.cannotTell} cannot tell)
                </td>
                <td>
                  {c.labels.map((l) => (
                    <span key={l.userId} className="chip" title={l.note ?? undefined}>
                      {l.username}: {l.value.replace("_", " ")}
                    </span>
                  ))}
                </td>
                <td>
                  <AdjudicateForm
                    setId={setId}
                    runId={c.runId}
                    metric={c.metric}
                    current={c.adjudication?.value ?? null}
                    note={c.adjudication?.note ?? ""}
                    action={adjudicateAction}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
