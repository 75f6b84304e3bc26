import { METRICS } from "@/lib/metrics/catalog";
import type { Citation } from "@/lib/judge/schema";
import type { RunVerdict } from "@/lib/runs/types";
import { AnchorLink } from "@/components/trajectory/anchor-link";
import styles from "./verdict-panel.module.css";

const LABEL: Record<string, string> = {
  violated: "violated",
  not_violated: "ok",
  not_applicable: "n/a",
  invalid: "invalid response",
};

/** Citations shown before the rest fold away (a resource verdict may cite a hundred steps). */
const SHOWN_CITATIONS = 8;

function CitationLink({ citation, changedPaths }: { citation: Citation; changedPaths: ReadonlySet<string> }) {
  if ("stepId" in citation) {
    return (
      <AnchorLink anchor={{ kind: "step", stepId: citation.stepId }} className={styles.citation} testId="citation-step">
        step {citation.stepId}
      </AnchorLink>
    );
  }
  const label = citation.hunk === undefined ? citation.path : `${citation.path} · hunk ${citation.hunk + 1}`;
  if (!changedPaths.has(citation.path)) {
    return (
      <span className={`${styles.citation} ${styles.dead}`} title="the run did not change this file: no diff to show">
        {label}
      </span>
    );
  }
  return (
    <AnchorLink
      anchor={{ kind: "file", path: citation.path, hunk: citation.hunk ?? null }}
      className={styles.citation}
      testId="citation-file"
    >
      {label}
    </AnchorLink>
  );
}

function Citations({ citations, changedPaths }: { citations: Citation[]; changedPaths: ReadonlySet<string> }) {
  if (citations.length === 0) return null;
  const key = (c: Citation) => ("stepId" in c ? `s:${c.stepId}` : `f:${c.path}:${c.hunk ?? ""}`);
  const head = citations.slice(0, SHOWN_CITATIONS);
  const rest = citations.slice(SHOWN_CITATIONS);
  return (
    <div className={styles.citations}>
      <span className="muted">cites</span>
      {head.map((c) => (
        <CitationLink key={key(c)} citation={c} changedPaths={changedPaths} />
      ))}
      {rest.length > 0 ? (
        <details className={styles.more}>
          <summary>{rest.length} more</summary>
          {rest.map((c) => (
            <CitationLink key={key(c)} citation={c} changedPaths={changedPaths} />
          ))}
        </details>
      ) : null}
    </div>
  );
}

/** Per metric, every judge's verdict with its rationale, evidence and clickable citations. */
export function VerdictPanel({ verdicts, changedPaths }: { verdicts: RunVerdict[]; changedPaths: string[] }) {
  if (verdicts.length === 0) {
    return (
      <div className="empty-state" data-testid="verdicts-empty">
        <strong>Not evaluated yet.</strong> No judge has scored this run: run <code>npm run evaluate</code> (or queue an
        evaluation on the Jobs page) to get its eleven verdicts.
      </div>
    );
  }
  const changed = new Set(changedPaths);
  const counts = new Map<string, number>();
  for (const v of verdicts) counts.set(v.value, (counts.get(v.value) ?? 0) + 1);
  const known = new Set<string>(METRICS.map((m) => m.id));
  const unknown = verdicts.filter((v) => !known.has(v.metric));
  const rows = [
    ...METRICS.flatMap((metric) =>
      verdicts
        .filter((v) => v.metric === metric.id)
        .map((v) => ({ v, label: metric.label, help: metric.violatedWhen })),
    ),
    ...unknown.map((v) => ({ v, label: v.metric, help: "" })),
  ];
  return (
    <>
      <p className="muted" data-testid="verdict-summary">
        {["violated", "not_violated", "not_applicable", "invalid"]
          .filter((value) => counts.has(value))
          .map((value) => `${counts.get(value)} ${LABEL[value]}`)
          .join(" · ")}
      </p>
      <div className="table-wrap">
        <table className={`grid ${styles.verdicts}`} data-testid="verdict-panel">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Judge</th>
              <th scope="col">Verdict</th>
              <th scope="col">Rationale, evidence and citations</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ v, label, help }) => (
              <tr
                key={`${v.metric}-${v.judgeName}-${v.judgeModel}-${v.promptVersion}`}
                data-testid="verdict-row"
                data-metric={v.metric}
                // `verdict-row-<value>` stays a plain class too: the e2e specs find violated rows by it.
                className={`verdict-row-${v.value}${v.value === "violated" ? ` ${styles.rowViolated}` : ""}`}
              >
                <th scope="row" title={help}>
                  {label}
                </th>
                <td>
                  {v.judgeName}
                  {v.judgeModel ? <span className="muted"> {v.judgeModel}</span> : null}
                </td>
                <td>
                  <span className={`${styles.verdict} ${styles[v.value] ?? ""}`}>{LABEL[v.value] ?? v.value}</span>
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
                  <Citations citations={v.citations} changedPaths={changed} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
