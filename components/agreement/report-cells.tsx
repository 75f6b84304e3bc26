import type { AgreementReport, MacroStat } from "@/lib/agreement/report-types";
import { formatPercent } from "@/lib/dashboard/format";
import { METRICS } from "@/lib/metrics/catalog";

export const METRIC_LABEL = new Map(METRICS.map((m) => [m.id, m.label]));
/** Three decimals; a value that rounds to zero prints as 0.000, never -0.000. */
export const num = (v: number | null, digits = 3) =>
  v === null ? "–" : (Math.abs(v) < 0.5 * 10 ** -digits ? 0 : v).toFixed(digits);
export const pct = (v: number | null) => (v === null ? "–" : formatPercent(v));
export const ci = (i: [number, number] | null, f: (v: number) => string = formatPercent) =>
  i ? `${f(i[0])}–${f(i[1])}` : "";

/** Judge id -> "name · model · prompt version"; user id -> username. */
export interface ReportNames {
  judge: Map<number, string>;
  user: Map<number, string>;
}

export function reportNames(report: AgreementReport): ReportNames {
  return {
    judge: new Map(report.judges.map((j) => [j.id, [j.name, j.model, j.promptVersion].filter(Boolean).join(" · ")])),
    user: new Map(report.annotators.map((a) => [a.userId, a.username])),
  };
}

/** A macro average with its bootstrap interval under it. */
export function Macro({ stat, percent }: { stat: MacroStat; percent?: boolean }) {
  const f = percent ? formatPercent : (v: number) => v.toFixed(3);
  return (
    <>
      {stat.value === null ? "–" : f(stat.value)}
      {stat.interval ? <span className="cell-count">{ci(stat.interval, f)}</span> : null}
    </>
  );
}
