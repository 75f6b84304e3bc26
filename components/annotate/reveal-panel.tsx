import type { RevealedItem } from "@/lib/agreement/study-types";
import { METRICS } from "@/lib/metrics/catalog";

const VALUE_TEXT: Record<string, string> = {
  violated: "violated",
  not_violated: "not violated",
  cannot_tell: "cannot tell",
  not_applicable: "n/a",
  invalid: "invalid",
};

/** After submit: what the judges and the other annotators (who submitted) said, per metric. */
export function RevealPanel({ revealed }: { revealed: RevealedItem }) {
  const judges = [...new Map(revealed.verdicts.map((v) => [v.judgeId, v])).values()];
  const metrics = METRICS.filter((m) => revealed.metrics.includes(m.id));
  return (
    <section className="reveal" data-testid="reveal-panel" aria-labelledby="reveal-title">
      <h2 id="reveal-title">Judges and other annotators</h2>
      <div className="table-wrap">
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {judges.map((j) => (
                <th scope="col" key={j.judgeId} title={`${j.kind} ${j.provider} ${j.model} ${j.promptVersion}`}>
                  {j.name}
                </th>
              ))}
              {revealed.others.map((o) => (
                <th scope="col" key={o.userId}>
                  {o.displayName}
                </th>
              ))}
              <th scope="col">Majority</th>
            </tr>
          </thead>
          <tbody>
            {metrics.map((m) => {
              const majority = revealed.majorities.find((x) => x.metric === m.id);
              return (
                <tr key={m.id} data-testid="reveal-row" data-metric={m.id}>
                  <th scope="row">{m.label}</th>
                  {judges.map((j) => {
                    const verdict = revealed.verdicts.find((v) => v.judgeId === j.judgeId && v.metric === m.id);
                    return (
                      <td key={j.judgeId} title={verdict?.rationale}>
                        {verdict ? VALUE_TEXT[verdict.value] : "–"}
                      </td>
                    );
                  })}
                  {revealed.others.map((o) => {
                    const label = o.labels.find((l) => l.metric === m.id);
                    return (
                      <td key={o.userId} title={label?.note ?? undefined}>
                        {label ? VALUE_TEXT[label.value] : "–"}
                      </td>
                    );
                  })}
                  <td>{majority?.majority ? VALUE_TEXT[majority.majority] : "no majority"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
