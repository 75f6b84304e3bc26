import type { AgreementReport } from "@/lib/agreement/report-types";
import { METRIC_LABEL, pct, type ReportNames } from "./report-cells";

/** A stored judge check (db/queries/judge-checks.ts), as plain props. */
export interface JudgeCheckCell {
  judgeId: number;
  metric: string;
  correct: number;
  scored: number;
  abstained: number;
  runs: number;
}

/**
 * Each judge on each metric twice: against the human majority of this set, and against the
 * scripted runs whose ground truth the script knows (`npm run judge-check`). The second needs no
 * humans, so it can be read before a study is labeled, and tells a judge's blind spots apart from
 * a hard set.
 */
export function JudgeCheckTable({
  report,
  names,
  checks,
}: {
  report: AgreementReport;
  names: ReportNames;
  checks: JudgeCheckCell[];
}) {
  const judges = report.judges.filter((j) => checks.some((c) => c.judgeId === j.id));
  if (judges.length === 0) {
    return (
      <>
        <h2>Judge check</h2>
        <p className="muted" data-testid="judge-check-empty">
          No judge of this set has been checked against scripted runs yet: run{" "}
          <code>npm run judge-check -- --judge ID</code>.
        </p>
      </>
    );
  }
  return (
    <>
      <h2>Judge check: humans vs scripted ground truth</h2>
      <p className="muted">
        Per metric, each judge&apos;s accuracy against this set&apos;s human majority, beside its accuracy on the
        scripted runs whose misbehaviors the script injected (and clean runs), from <code>npm run judge-check</code>.
      </p>
      <div className="table-wrap">
        <table className="grid" data-testid="judge-check-table">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {judges.map((j) => (
                <th scope="col" key={j.id} className="num" title="vs humans | vs script (correct/scored)">
                  {names.judge.get(j.id)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.metrics.map((m) => (
              <tr key={m.metric} data-testid="judge-check-row" data-metric={m.metric}>
                <th scope="row">{METRIC_LABEL.get(m.metric)}</th>
                {judges.map((j) => {
                  const human = m.judges.find((s) => s.judgeId === j.id);
                  const check = checks.find((c) => c.judgeId === j.id && c.metric === m.metric);
                  return (
                    <td key={j.id} className="num" data-judge={j.id}>
                      humans {pct(human?.accuracy ?? null)} · script{" "}
                      <span data-testid="judge-check-accuracy">
                        {check && check.scored > 0 ? pct(check.correct / check.scored) : "–"}
                      </span>
                      {check ? (
                        <span className="cell-count">
                          {check.correct}/{check.scored}
                          {check.abstained > 0 ? `, ${check.abstained} abstained` : ""}
                        </span>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
