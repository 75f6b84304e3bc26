/**
 * Which items a judge flips relative to another, measured against the humans: the question a new
 * prompt version has to answer ("does v2 fix v1's misses without breaking what v1 got right?").
 * A judge is right on a cell when its verdict is decided and equals the human reference; an
 * undecided verdict (not_applicable, invalid, none) counts as not right. Cells without a
 * reference say nothing about either judge and are skipped.
 */
import type { MetricId } from "@/lib/metrics/catalog";
import type { Cell } from "./item-majority";
import { mcnemarExact } from "./mcnemar";
import type { FlipItem, JudgeFlips } from "./report-types";

export function judgeFlips(
  byMetric: ReadonlyMap<MetricId, Cell[]>,
  baseJudgeId: number,
  candidateJudgeId: number,
): JudgeFlips {
  const items: FlipItem[] = [];
  const perMetric: JudgeFlips["perMetric"] = [];
  for (const [metric, cells] of byMetric) {
    let toward = 0;
    let away = 0;
    for (const cell of cells) {
      const reference = cell.reference;
      if (reference === null) continue;
      const base = cell.verdicts.get(baseJudgeId) ?? null;
      const candidate = cell.verdicts.get(candidateJudgeId) ?? null;
      const baseRight = base === reference;
      const candidateRight = candidate === reference;
      if (baseRight === candidateRight) continue;
      const direction = candidateRight ? "toward" : "away";
      if (candidateRight) toward += 1;
      else away += 1;
      items.push({ runId: cell.runId, position: cell.position, metric, reference, base, candidate, direction });
    }
    perMetric.push({ metric, toward, away });
  }
  items.sort((a, b) => a.position - b.position);
  const toward = perMetric.reduce((sum, m) => sum + m.toward, 0);
  const away = perMetric.reduce((sum, m) => sum + m.away, 0);
  return { baseJudgeId, candidateJudgeId, toward, away, pValue: mcnemarExact(away, toward).pValue, perMetric, items };
}
