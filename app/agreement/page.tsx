import Link from "next/link";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { listAgreementSets } from "@/db/queries/agreement-sets";
import { benchmarkOptions, judgeOptions } from "@/db/queries/overview";
import { listUsers } from "@/db/queries/users";
import { requireUser } from "@/app/session";
import { CreateSetForm } from "@/components/agreement/create-set-form";
import { EmptyState } from "@/components/ui/states";
import { createSetAction } from "./actions";

/** Admin: the agreement sets with each annotator's progress, and a form to draw a new one. */
export default async function AgreementPage() {
  await connection();
  await requireUser(["admin"], "/agreement");
  const db = getAppDb();
  const sets = listAgreementSets(db);
  const annotators = listUsers(db).filter((u) => u.role === "annotator");
  return (
    <section>
      <h1>Agreement study</h1>
      <p className="muted">
        Stratified, seeded samples of runs, labeled blind by several annotators; the report compares every judge with
        the human majority.
      </p>
      {sets.length === 0 ? (
        <EmptyState title="No agreement sets yet">Draw one with the form below.</EmptyState>
      ) : (
        <table className="grid" data-testid="sets-table">
          <thead>
            <tr>
              <th scope="col">Set</th>
              <th scope="col" className="num">
                Items
              </th>
              <th scope="col" className="num">
                k
              </th>
              <th scope="col" className="num">
                Complete
              </th>
              <th scope="col">Annotators (submitted / assigned)</th>
            </tr>
          </thead>
          <tbody>
            {sets.map((set) => (
              <tr key={set.id} data-testid="set-row" data-set-id={set.id}>
                <td>
                  <Link href={`/agreement/${set.id}`}>{set.name}</Link> <span className="muted">seed {set.seed}</span>
                </td>
                <td className="num">{set.size}</td>
                <td className="num">{set.annotatorsPerItem}</td>
                <td className="num">{set.completedItems}</td>
                <td>
                  {set.annotators.map((a) => (
                    <span key={a.userId} className="chip" data-testid="annotator-progress">
                      {a.displayName}: {a.submitted}/{a.assigned}
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CreateSetForm
        action={createSetAction}
        annotators={annotators.map((u) => ({ id: u.id, label: `${u.displayName} (${u.username})` }))}
        benchmarks={benchmarkOptions(db).filter((b) => b.hasRuns)}
        judges={judgeOptions(db)}
      />
    </section>
  );
}
