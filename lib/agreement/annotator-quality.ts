/**
 * Annotator quality: how often each annotator agrees with the majority of the others on the same
 * item and metric. Leave-one-out, so an annotator never agrees with themselves; adjudications are
 * not used (they judge the item, not the annotator). A cell counts when the annotator voted and
 * the others have a strict majority; cannot_tell is no vote.
 */
import type { MetricId } from "@/lib/metrics/catalog";
import { wilsonInterval } from "./intervals";
import type { Cell } from "./item-majority";
import { majorityVote } from "./majority-vote";
import type { ReportInput } from "./report-input";
import type { AgreementRate, AnnotatorQuality } from "./report-types";

function rate(n: number, agreed: number): AgreementRate {
  return { n, agreed, rate: n === 0 ? null : agreed / n, interval: n === 0 ? null : wilsonInterval(agreed, n) };
}

export function annotatorQuality(byMetric: ReadonlyMap<MetricId, Cell[]>, input: ReportInput): AnnotatorQuality[] {
  return input.annotators.map((annotator, r) => {
    const own = input.labels.filter((label) => label.userId === annotator.userId);
    const perMetric: AnnotatorQuality["perMetric"] = [];
    let n = 0;
    let agreed = 0;
    for (const [metric, cells] of byMetric) {
      let metricN = 0;
      let metricAgreed = 0;
      for (const cell of cells) {
        const vote = cell.ratings[r] ?? null;
        if (vote === null) continue;
        const others = majorityVote(cell.ratings.filter((_, other) => other !== r));
        if (others.label === null) continue;
        metricN += 1;
        if (others.label === vote) metricAgreed += 1;
      }
      perMetric.push({ metric, ...rate(metricN, metricAgreed) });
      n += metricN;
      agreed += metricAgreed;
    }
    return {
      userId: annotator.userId,
      username: annotator.username,
      labels: own.length,
      cannotTell: own.filter((label) => label.value === "cannot_tell").length,
      ...rate(n, agreed),
      perMetric,
    };
  });
}
