import Link from "next/link";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { listAnnotatorSets } from "@/db/queries/agreement-queue";
import { requireUser } from "@/app/session";
import { EmptyState } from "@/components/ui/states";

const itemHref = (setId: number, runId: string) => `/annotate/${setId}/${encodeURIComponent(runId)}`;

/** An annotator's home: the agreement sets they label, their progress, and where to resume. */
export default async function AnnotatePage() {
  await connection();
  const user = await requireUser(["annotator", "admin"], "/annotate");
  const sets = listAnnotatorSets(getAppDb(), user.id);
  return (
    <section>
      <h1>Annotate</h1>
      <p className="muted">
        Signed in as {user.displayName}. Label each run blind: the judges and the other annotators appear only after you
        submit an item.
      </p>
      {sets.length === 0 ? (
        <EmptyState title="Nothing to label yet" testId="annotate-empty">
          An admin assigns you items when creating an agreement set.
        </EmptyState>
      ) : (
        <ul className="set-cards" data-testid="annotator-sets">
          {sets.map((set) => (
            <li key={set.id} className="set-card" data-testid="annotator-set" data-set-id={set.id}>
              <strong>{set.name}</strong>
              <span className="muted" data-testid="annotator-progress">
                {set.submitted} of {set.assigned} submitted
              </span>
              <progress max={set.assigned} value={set.submitted} />
              <span>
                {set.nextRunId ? (
                  <Link href={itemHref(set.id, set.nextRunId)} data-testid="resume">
                    {set.submitted === 0 ? "Start" : "Resume"}
                  </Link>
                ) : (
                  <span className="ok">All submitted</span>
                )}{" "}
                · <Link href={`/annotate/${set.id}`}>All my items</Link>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
