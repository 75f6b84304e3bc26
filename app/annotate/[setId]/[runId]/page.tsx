import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { loadLabelingItem, loadRevealed } from "@/db/queries/agreement-labels";
import { requireUser } from "@/app/session";
import { RevealPanel } from "@/components/annotate/reveal-panel";
import { LabelForm } from "@/components/annotate/label-form";
import { ContractView } from "@/components/benchmark/contract-view";
import { RunChanges } from "@/components/diff/run-changes";
import { TrajectoryViewer } from "@/components/trajectory/trajectory-viewer";
import { ErrorState } from "@/components/ui/states";
import type { LabelingItem } from "@/lib/agreement/study-types";
import { isAppError } from "@/lib/errors/app-error";
import { METRICS } from "@/lib/metrics/catalog";
import { safeDecode } from "@/lib/util/decode";
import { saveLabelAction, submitItemAction } from "../../actions";

const itemHref = (setId: number, runId: string) => `/annotate/${setId}/${encodeURIComponent(runId)}`;

/**
 * The labeling workspace: one run with its task, contract, trajectory and diffs, and the label
 * form beside it. The judges' verdicts are never loaded here before the item is submitted.
 */
export default async function LabelingPage({ params }: { params: Promise<{ setId: string; runId: string }> }) {
  await connection();
  const raw = await params;
  const setId = Number(raw.setId);
  const runId = safeDecode(raw.runId);
  const user = await requireUser(["annotator", "admin"], `/annotate/${raw.setId}/${raw.runId}`);
  if (!Number.isInteger(setId) || setId <= 0 || runId === null) notFound();
  let item: LabelingItem;
  try {
    item = await loadLabelingItem(getAppDb(), setId, runId, user.id);
  } catch (error) {
    if (isAppError(error) && (error.code === "FORBIDDEN" || error.code === "NOT_FOUND")) {
      return <ErrorState title="You cannot label this item" errors={[error.message]} />;
    }
    throw error;
  }
  const revealed = item.canReveal ? loadRevealed(getAppDb(), setId, runId, user.id) : null;
  const { run } = item;
  const labels = Object.fromEntries(item.labels.map((l) => [l.metric, { value: l.value, note: l.note ?? "" }]));
  return (
    <article className="annotate" data-testid="labeling-item" data-run-id={runId}>
      <p className="muted">
        <Link href="/annotate">Annotate</Link> · <Link href={`/annotate/${setId}`}>{item.set.name}</Link> · item{" "}
        {item.ordinal} of {item.total}
        {item.previousRunId ? (
          <>
            {" "}
            · <Link href={itemHref(setId, item.previousRunId)}>← previous</Link>
          </>
        ) : null}
        {item.nextRunId ? (
          <>
            {" "}
            ·{" "}
            <Link href={itemHref(setId, item.nextRunId)} data-testid="next-item">
              next →
            </Link>
          </>
        ) : null}
      </p>
      <h1>
        {run.subtaskId}: {run.instanceId}
      </h1>
      <div className="annotate-grid">
        <div>
          <section className="run-section" aria-labelledby="task-title">
            <h2 id="task-title">Task</h2>
            <div className="task-grid">
              <blockquote className="prompt">{run.prompt}</blockquote>
              <div>
                <ContractView contract={run.contract} />
              </div>
            </div>
          </section>
          <section className="run-section" aria-labelledby="trajectory-title">
            <h2 id="trajectory-title">Trajectory · {run.steps.length} steps</h2>
            {/* Contract marks hint at verdicts: hidden until the annotator has decided. */}
            <TrajectoryViewer
              steps={item.submittedAt === null ? run.steps.map((s) => ({ ...s, marks: [] })) : run.steps}
            />
          </section>
          <RunChanges runId={run.id} changes={run.changes} target={run.target} />
        </div>
        <aside aria-label="Labels">
          <LabelForm
            key={`${runId}-${item.submittedAt ?? "open"}`}
            setId={setId}
            runId={runId}
            metrics={METRICS.filter((m) => item.metrics.includes(m.id)).map((m) => ({
              id: m.id,
              label: m.label,
              guideline: m.guideline,
            }))}
            initial={labels}
            submitted={item.submittedAt !== null}
            saveAction={saveLabelAction}
            submitAction={submitItemAction}
            previousHref={item.previousRunId ? itemHref(setId, item.previousRunId) : null}
            nextHref={item.nextRunId ? itemHref(setId, item.nextRunId) : null}
            nextUnfinishedHref={item.nextUnfinishedRunId ? itemHref(setId, item.nextUnfinishedRunId) : null}
          />
          {revealed ? <RevealPanel revealed={revealed} /> : null}
          {item.submittedAt !== null && !item.set.revealAfterSubmit ? (
            <p className="muted" data-testid="no-reveal">
              This set does not reveal the judges or the other annotators.
            </p>
          ) : null}
        </aside>
      </div>
    </article>
  );
}
