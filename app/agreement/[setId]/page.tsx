import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { agreementReport } from "@/db/queries/agreement-report";
import { judgeChecksOf } from "@/db/queries/judge-checks";
import { getAgreementSet } from "@/db/queries/agreement-sets";
import { requireUser } from "@/app/session";
import { AgreementReportView } from "@/components/agreement/agreement-report";
import { isAppError } from "@/lib/errors/app-error";

/** Admin: a set's progress, its agreement report, exports and the way to adjudication. */
export default async function AgreementSetPage({ params }: { params: Promise<{ setId: string }> }) {
  await connection();
  const { setId: raw } = await params;
  await requireUser(["admin"], `/agreement/${encodeURIComponent(raw)}`);
  const setId = Number(raw);
  if (!Number.isInteger(setId) || setId <= 0) notFound();
  const db = getAppDb();
  let set;
  try {
    set = getAgreementSet(db, setId);
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const report = agreementReport(db, setId);
  const exportHref = (what: string, format: string) => `/api/agreement/${setId}/export?what=${what}&format=${format}`;
  return (
    <section>
      <p className="muted">
        <Link href="/agreement">Agreement study</Link> · seed {set.seed} · {set.size} items · k ={" "}
        {set.annotatorsPerItem} · strata {set.design.strata.join(" x ") || "none"}
      </p>
      <h1 data-testid="set-name">{set.name}</h1>
      <p>
        {set.completedItems} of {set.size} items complete ·{" "}
        {set.annotators.map((a) => (
          <span key={a.userId} className="chip">
            {a.displayName}: {a.submitted}/{a.assigned}
          </span>
        ))}{" "}
        · <Link href={`/agreement/${setId}/adjudicate`}>Adjudication queue</Link>
      </p>
      <p className="export-links" data-testid="agreement-exports">
        Export: labels <a href={exportHref("labels", "csv")}>CSV</a> · <a href={exportHref("labels", "json")}>JSON</a> ·
        report <a href={exportHref("report", "csv")}>CSV</a> · <a href={exportHref("report", "json")}>JSON</a> ·{" "}
        <a href={exportHref("manifest", "json")}>manifest</a>
      </p>
      <AgreementReportView
        report={report}
        checks={judgeChecksOf(
          db,
          report.judges.map((j) => j.id),
        )}
      />
    </section>
  );
}
