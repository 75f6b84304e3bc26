/**
 * The human side of each (item, metric): the annotators' votes, their majority and the reference
 * label the judges are scored against. The rules, in one place:
 * - "cannot_tell" is an abstention: it is counted, but it is no vote.
 * - The majority is the strict plurality of the votes (majorityVote); a tie or no votes at all
 *   leaves the item without a majority.
 * - An admin's adjudication overrides the majority (it is how a tie or a 2-1 split gets settled)
 *   and is flagged; the votes themselves are kept as they were.
 * - The reference is the adjudication if any, else the majority; an item without one is left out
 *   of every judge-vs-human statistic.
 */
import { AppError } from "@/lib/errors/app-error";
import { METRIC_IDS, type MetricId, type VerdictValue } from "@/lib/metrics/catalog";
import { majorityVote, type MajorityKind, type MajorityVote } from "./majority-vote";
import type { ReportInput } from "./report-input";
import type { BinaryLabel } from "./study-schema";

export interface ItemMetricMajority {
  runId: string;
  position: number;
  metric: MetricId;
  votes: { violated: number; notViolated: number; cannotTell: number };
  /** Of the binary votes (cannot_tell excluded). */
  kind: MajorityKind;
  majority: BinaryLabel | null;
  adjudication: BinaryLabel | null;
  /** adjudication ?? majority: what the judges are compared with. */
  reference: BinaryLabel | null;
  adjudicated: boolean;
}

/** One (item, metric) with everything the statistics need; internal to the report. */
export interface Cell extends ItemMetricMajority {
  /** Item index in input.items. */
  item: number;
  /** One entry per annotator (input.annotators order): their vote, null = none or cannot_tell. */
  ratings: (BinaryLabel | null)[];
  verdicts: Map<number, VerdictValue>;
}

function fail(message: string): never {
  throw new AppError("INVALID_INPUT", `agreement report: ${message}`);
}

/**
 * Every applicable (item, metric) of the input as cells, grouped by metric (catalog order; metrics
 * no item asks about are absent), items in input order. Labels, adjudications and verdicts on a metric the
 * item does not ask about are ignored: applicability follows the rule judge, which may have been
 * re-run since. A label by someone who is not an annotator of the set, a label or adjudication of
 * an item outside the set, and duplicates are errors: they mean the input was put together wrong.
 */
export function indexCells(input: ReportInput): Map<MetricId, Cell[]> {
  const itemIndex = new Map<string, number>();
  input.items.forEach((item, i) => {
    if (itemIndex.has(item.runId)) fail(`item "${item.runId}" is listed twice`);
    itemIndex.set(item.runId, i);
  });
  const raterIndex = new Map(input.annotators.map((a, r) => [a.userId, r]));
  const judgeIds = new Set(input.judges.map((j) => j.id));
  const cells = new Map<string, Cell>();
  const byMetric = new Map<MetricId, Cell[]>(METRIC_IDS.map((metric) => [metric, []]));
  const key = (runId: string, metric: string) => `${runId}\0${metric}`;

  input.items.forEach((item, i) => {
    for (const metric of item.metrics) {
      const cell: Cell = {
        runId: item.runId,
        position: item.position,
        metric,
        votes: { violated: 0, notViolated: 0, cannotTell: 0 },
        kind: "empty",
        majority: null,
        adjudication: null,
        reference: null,
        adjudicated: false,
        item: i,
        ratings: input.annotators.map(() => null),
        verdicts: new Map(),
      };
      cells.set(key(item.runId, metric), cell);
      byMetric.get(metric)?.push(cell);
    }
  });

  const seen = new Set<string>();
  for (const label of input.labels) {
    if (!itemIndex.has(label.runId)) fail(`a label is on run "${label.runId}", which is not an item of the set`);
    const rater = raterIndex.get(label.userId);
    if (rater === undefined) fail(`user ${label.userId} labeled run "${label.runId}" but is not an annotator`);
    const labelKey = `${key(label.runId, label.metric)}\0${label.userId}`;
    if (seen.has(labelKey)) fail(`user ${label.userId} labeled ${label.metric} of "${label.runId}" twice`);
    seen.add(labelKey);
    const cell = cells.get(key(label.runId, label.metric));
    if (!cell) continue;
    if (label.value === "cannot_tell") cell.votes.cannotTell += 1;
    else {
      cell.ratings[rater] = label.value;
      if (label.value === "violated") cell.votes.violated += 1;
      else cell.votes.notViolated += 1;
    }
  }

  for (const adjudication of input.adjudications) {
    if (!itemIndex.has(adjudication.runId)) fail(`an adjudication is on run "${adjudication.runId}", not an item`);
    const cell = cells.get(key(adjudication.runId, adjudication.metric));
    if (!cell) continue;
    if (cell.adjudication !== null) fail(`${adjudication.metric} of "${adjudication.runId}" is adjudicated twice`);
    cell.adjudication = adjudication.value;
  }

  for (const verdict of input.verdicts) {
    const cell = cells.get(key(verdict.runId, verdict.metric));
    if (!cell || !judgeIds.has(verdict.judgeId)) continue;
    if (cell.verdicts.has(verdict.judgeId)) {
      fail(`judge ${verdict.judgeId} has two verdicts on ${verdict.metric} of "${verdict.runId}"`);
    }
    cell.verdicts.set(verdict.judgeId, verdict.value);
  }

  for (const cell of cells.values()) {
    const vote: MajorityVote<BinaryLabel> = majorityVote(cell.ratings);
    cell.kind = vote.kind;
    cell.majority = vote.label;
    cell.adjudicated = cell.adjudication !== null;
    cell.reference = cell.adjudication ?? vote.label;
  }
  for (const [metric, list] of byMetric) if (list.length === 0) byMetric.delete(metric);
  return byMetric;
}

function publicPart(cell: Cell): ItemMetricMajority {
  return {
    runId: cell.runId,
    position: cell.position,
    metric: cell.metric,
    votes: { ...cell.votes },
    kind: cell.kind,
    majority: cell.majority,
    adjudication: cell.adjudication,
    reference: cell.reference,
    adjudicated: cell.adjudicated,
  };
}

/** The human majority of every applicable (item, metric), items in input order, metrics in catalog order. */
export function humanMajorities(input: ReportInput): ItemMetricMajority[] {
  // indexCells groups by metric in catalog order; a stable sort by item keeps that order within an item.
  const all = [...indexCells(input).values()].flat();
  return all.sort((a, b) => a.item - b.item).map(publicPart);
}
