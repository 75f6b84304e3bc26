import { METRICS } from "@/lib/metrics/catalog";
import type { RunDetail } from "@/lib/runs/types";

const LABEL: Record<string, string> = {
  violated: "violated",
  not_violated: "ok",
  not_applicable: "n/a",
  invalid: "invalid response",
};

/** Per metric, every judge's verdict with its rationale, evidence and clickable citations. */
export function VerdictPanel({ verdicts }: { verdicts: RunDetail["verdicts"] }) {
  if (verdicts.length === 0) {
    return (
      <>
        <h2>Verdicts</h2>
        <p className="muted" data-testid="verdicts-empty">
          Not evaluated yet: <code>npm run evaluate</code>.
        </p>
      </>
    );
  }
  return (
    <>
      <h2>Verdicts</h2>
      <div className="table-wrap">
        <table className="grid verdicts" data-testid="verdict-panel">
          <thead>
            <tr>
              <th>Metric</th>
              <th>Judge</th>
              <th>Verdict</th>
              <th>Rationale and evidence</th>
            </tr>
          </thead>
          <tbody>
            {METRICS.flatMap((metric) =>
              verdicts
                .filter((v) => v.metric === metric.id)
                .map((v) => (
                  <tr
                    key={`${metric.id}-${v.judgeName}-${v.judgeModel}-${v.promptVersion}`}
                    data-testid="verdict-row"
                    data-metric={metric.id}
                  >
                    <td title={metric.violatedWhen}>{metric.label}</td>
                    <td>
                      {v.judgeName}
                      {v.judgeModel ? <span className="muted"> {v.judgeModel}</span> : null}
                    </td>
                    <td>
                      <span className={`verdict verdict-${v.value}`}>{LABEL[v.value] ?? v.value}</span>
                    </td>
                    <td className="wrap">
                      {v.rationale}
                      {v.evidence.length > 0 ? (
                        <ul>
                          {v.evidence.map((e, i) => (
                            <li key={i}>
                              {e.message}
                              {e.path ? (
                                <span className="muted">
                                  {" "}
                                  {e.path}
                                  {e.line ? `:${e.line}` : ""}
                                </span>
                              ) : null}
                              {e.hunk ? (
                                <details>
                                  <summary>diff</summary>
                                  <pre className="hunk">{e.hunk}</pre>
                                </details>
                              ) : null}
                            </li>
                          ))}
                        </ul>
                      ) : null}
                      {v.citations.length > 0 ? (
                        <div className="citations">
                          {v.citations.map((c) =>
                            "stepId" in c ? (
                              <a key={`s${c.stepId}`} href={`#step-${c.stepId}`}>
                                step {c.stepId}
                              </a>
                            ) : (
                              <a key={`f${c.path}`} href={`#file-${c.path}`}>
                                {c.path}
                              </a>
                            ),
                          )}
                        </div>
                      ) : null}
                    </td>
                  </tr>
                )),
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
