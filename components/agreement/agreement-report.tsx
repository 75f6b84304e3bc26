import type { AgreementReport, JudgeMetricStats } from "@/lib/agreement/report-types";
import { JudgeCheckTable, type JudgeCheckCell } from "./judge-check-table";
import { ci, Macro, METRIC_LABEL, num, pct, reportNames, type ReportNames } from "./report-cells";

interface SectionProps {
  report: AgreementReport;
  names: ReportNames;
}

/** Each judge against the human majority, averaged over metrics, and the humans among themselves. */
function MacroTable({ report, names }: SectionProps) {
  return (
    <>
      <h2>Judges vs the human majority (macro average over metrics)</h2>
      <table className="grid" data-testid="macro-table">
        <thead>
          <tr>
            <th scope="col">Judge</th>
            <th scope="col" className="num">
              Accuracy
            </th>
            <th scope="col" className="num">
              Cohen&apos;s κ
            </th>
            <th scope="col" className="num">
              Gwet&apos;s AC1
            </th>
          </tr>
        </thead>
        <tbody>
          {report.macro.judges.map((j) => (
            <tr key={j.judgeId} data-testid="macro-row" data-judge-id={j.judgeId}>
              <th scope="row">{names.judge.get(j.judgeId)}</th>
              <td className="num">
                <Macro stat={j.accuracy} percent />
              </td>
              <td className="num">
                <Macro stat={j.kappa} />
              </td>
              <td className="num">
                <Macro stat={j.ac1} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Intervals: {Math.round(report.bootstrap.level * 100)}% bootstrap over items ({report.bootstrap.iterations}{" "}
        resamples, seed {report.bootstrap.seed}). Humans among themselves, mean over metrics: Fleiss&apos; κ{" "}
        {num(report.macro.humans.fleissKappa.value)}, Krippendorff&apos;s α {num(report.macro.humans.alpha.value)}.
      </p>
    </>
  );
}

/** One judge on one metric: accuracy (agreed/n), its Wilson interval, Cohen's kappa, Gwet's AC1. */
function JudgeCell({ judgeId, stat }: { judgeId: number; stat: JudgeMetricStats | undefined }) {
  return (
    <td
      className="num"
      data-testid="judge-cell"
      data-judge-id={judgeId}
      data-accuracy={stat?.accuracy ?? ""}
      data-kappa={stat?.kappa ?? ""}
      data-ac1={stat?.ac1 ?? ""}
    >
      {stat ? (
        <>
          {pct(stat.accuracy)}{" "}
          <span className="muted">
            ({stat.agreed}/{stat.n})
          </span>
          <span className="cell-count">
            {ci(stat.interval)} · κ {num(stat.kappa)} · AC1 {num(stat.ac1)}
          </span>
        </>
      ) : (
        "–"
      )}
    </td>
  );
}

/** Per metric: items, vote splits, adjudications, each judge, Fleiss' kappa and Krippendorff's alpha. */
function MetricTable({ report, names }: SectionProps) {
  return (
    <>
      <h2>Per metric</h2>
      <div className="table-wrap">
        <table className="grid" data-testid="metric-table">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col" className="num">
                Items
              </th>
              <th scope="col" className="num" title="unanimous / 2-1 split / tie (no majority)">
                Unan. / split / tie
              </th>
              <th scope="col" className="num">
                Adjud.
              </th>
              {report.judges.map((j) => (
                <th
                  scope="col"
                  key={j.id}
                  className="num"
                  title="accuracy vs majority [Wilson 95%], Cohen's κ, Gwet's AC1"
                >
                  {names.judge.get(j.id)}
                </th>
              ))}
              <th scope="col" className="num">
                Fleiss&apos; κ
              </th>
              <th scope="col" className="num">
                Kripp. α
              </th>
            </tr>
          </thead>
          <tbody>
            {report.metrics.map((m) => (
              <tr key={m.metric} data-testid="metric-row" data-metric={m.metric}>
                <th scope="row">{METRIC_LABEL.get(m.metric)}</th>
                <td className="num">{m.items}</td>
                <td className="num" data-testid="votes">
                  {m.votes.unanimous} / {m.votes.split} / {m.votes.tie}
                </td>
                <td className="num">{m.adjudicated}</td>
                {report.judges.map((j) => (
                  <JudgeCell key={j.id} judgeId={j.id} stat={m.judges.find((x) => x.judgeId === j.id)} />
                ))}
                <td className="num" data-testid="fleiss">
                  {num(m.humans.fleissKappa)}
                </td>
                <td className="num" data-testid="alpha">
                  {num(m.humans.alpha)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Per metric and judge, the confusion matrix against the majority; the pairwise annotator kappas. */
function ConfusionDetails({ report, names }: SectionProps) {
  return (
    <details>
      <summary>Confusion matrices and pairwise annotator kappas</summary>
      {report.metrics.map((m) => (
        <div key={m.metric} className="confusions">
          <h3>{METRIC_LABEL.get(m.metric)}</h3>
          {m.judges.map((s) => (
            <table key={s.judgeId} className="grid confusion" data-testid="confusion">
              <caption>{names.judge.get(s.judgeId)} (rows: human majority; columns: judge)</caption>
              <thead>
                <tr>
                  <th />
                  {report.categories.map((c) => (
                    <th key={c} scope="col">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {report.categories.map((c, i) => (
                  <tr key={c}>
                    <th scope="row">{c}</th>
                    {report.categories.map((d, k) => (
                      <td key={d} className="num">
                        {s.confusion[i]?.[k] ?? 0}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
          <p className="muted">
            Pairwise κ:{" "}
            {m.humans.pairwise
              .map((p) => `${names.user.get(p.userA)}–${names.user.get(p.userB)} ${num(p.kappa)} (n=${p.n})`)
              .join("; ") || "–"}
          </p>
        </div>
      ))}
    </details>
  );
}

/** Prompt-version flips: how many items a newer judge moves toward or away from the humans. */
function FlipsTable({ report, names }: SectionProps) {
  if (report.flips.length === 0) return null;
  return (
    <>
      <h2>What a newer judge changes</h2>
      <table className="grid" data-testid="flips-table">
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col" className="num">
              Toward humans
            </th>
            <th scope="col" className="num">
              Away
            </th>
            <th scope="col" className="num">
              p (McNemar)
            </th>
          </tr>
        </thead>
        <tbody>
          {report.flips.map((f) => (
            <tr key={`${f.baseJudgeId}-${f.candidateJudgeId}`}>
              <td>{names.judge.get(f.baseJudgeId)}</td>
              <td>{names.judge.get(f.candidateJudgeId)}</td>
              <td className="num better">{f.toward}</td>
              <td className="num worse">{f.away}</td>
              <td className="num">{num(f.pValue)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Each annotator's labels, "cannot tell" count and agreement with the others' majority. */
function AnnotatorTable({ report }: { report: AgreementReport }) {
  return (
    <>
      <h2>Annotators</h2>
      <table className="grid" data-testid="annotator-quality">
        <thead>
          <tr>
            <th scope="col">Annotator</th>
            <th scope="col" className="num">
              Labels
            </th>
            <th scope="col" className="num">
              Cannot tell
            </th>
            <th scope="col" className="num">
              Agreement with the others&apos; majority
            </th>
          </tr>
        </thead>
        <tbody>
          {report.annotatorQuality.map((a) => (
            <tr key={a.userId} data-testid="quality-row" data-user={a.username}>
              <th scope="row">{a.username}</th>
              <td className="num">{a.labels}</td>
              <td className="num">{a.cannotTell}</td>
              <td className="num">
                {pct(a.rate)}{" "}
                <span className="muted">
                  ({a.agreed}/{a.n})
                </span>{" "}
                <span className="cell-count">{ci(a.interval)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * The agreement report of a set: per metric, each judge against the human majority (accuracy with
 * a Wilson interval, Cohen's kappa, Gwet's AC1, confusion matrix), the annotators among
 * themselves (Fleiss' kappa, Krippendorff's alpha, pairwise kappas), vote splits, macro averages
 * with a bootstrap interval, prompt-version flips, and annotator quality.
 */
export function AgreementReportView({ report, checks = [] }: { report: AgreementReport; checks?: JudgeCheckCell[] }) {
  const names = reportNames(report);
  return (
    <div className="agreement-report" data-testid="agreement-report">
      <MacroTable report={report} names={names} />
      <MetricTable report={report} names={names} />
      <JudgeCheckTable report={report} names={names} checks={checks} />
      <ConfusionDetails report={report} names={names} />
      <FlipsTable report={report} names={names} />
      <AnnotatorTable report={report} />
    </div>
  );
}
