import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { annotatorQueue } from "@/db/queries/agreement-queue";
import { requireUser } from "@/app/session";
import { ErrorState } from "@/components/ui/states";
import { isAppError } from "@/lib/errors/app-error";

const STATUS_TEXT = { todo: "to do", in_progress: "in progress", submitted: "submitted" } as const;

/** The annotator's own items of one set, in labeling order, with their status. */
export default async function AnnotatorQueuePage({ params }: { params: Promise<{ setId: string }> }) {
  await connection();
  const { setId: raw } = await params;
  const user = await requireUser(["annotator", "admin"], `/annotate/${encodeURIComponent(raw)}`);
  const setId = Number(raw);
  if (!Number.isInteger(setId) || setId <= 0) notFound();
  let queue;
  try {
    queue = annotatorQueue(getAppDb(), setId, user.id);
  } catch (error) {
    if (isAppError(error) && (error.code === "FORBIDDEN" || error.code === "NOT_FOUND")) {
      return <ErrorState title="You have no items in this set" errors={[error.message]} />;
    }
    throw error;
  }
  if (queue.items.length === 0) notFound();
  return (
    <section>
      <p className="muted">
        <Link href="/annotate">Annotate</Link> · {queue.setName}
      </p>
      <h1>My items</h1>
      <p className="muted">
        {queue.submitted} of {queue.assigned} submitted
        {queue.nextRunId ? (
          <>
            {" "}
            · <Link href={`/annotate/${setId}/${encodeURIComponent(queue.nextRunId)}`}>Resume</Link>
          </>
        ) : null}
      </p>
      <table className="grid" data-testid="queue-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Labeled
            </th>
          </tr>
        </thead>
        <tbody>
          {queue.items.map((item) => (
            <tr key={item.runId} data-testid="queue-row" data-status={item.status}>
              <td className="num">{item.ordinal}</td>
              <td>
                <Link href={`/annotate/${setId}/${encodeURIComponent(item.runId)}`}>
                  <code>{item.runId}</code>
                </Link>
              </td>
              <td>{STATUS_TEXT[item.status]}</td>
              <td className="num">
                {item.labeled}/{item.applicable}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
