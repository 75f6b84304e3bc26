/**
 * Drawing an agreement set: a stratified, seeded sample of runs (default 200, strata any subset of
 * subtask x framework x model) and the annotators who label each item. Everything is a pure
 * function of its inputs and the seed, so a set's manifest (seed, strata, filters) is enough to
 * draw the very same sample again.
 */
import { AppError } from "@/lib/errors/app-error";
import { seededRandom } from "@/lib/util/random";
import { DEFAULT_SET_SIZE, STRATUM_FIELDS, type StratumAllocation, type StratumField } from "./study-schema";

export interface SampleCandidate {
  runId: string;
  subtask: string;
  framework: string;
  model: string;
}

export interface SampleOptions {
  seed: number;
  /** Items wanted (default 200); all candidates when there are fewer. */
  size?: number;
  /** Default subtask x framework x model; empty = one stratum. */
  strata?: readonly StratumField[];
}

export interface SampledItem {
  runId: string;
  stratum: string;
  /** 0-based place in the labeling order (shuffled, so strata do not come in blocks). */
  position: number;
}

export interface Sample {
  items: SampledItem[];
  /** Every non-empty stratum, in key order. */
  allocation: StratumAllocation[];
  population: number;
}

/** The stratum key stored with an item: the chosen fields' values joined by "|", in catalog order. */
export function stratumOf(candidate: SampleCandidate, strata: readonly StratumField[]): string {
  return STRATUM_FIELDS.filter((field) => strata.includes(field))
    .map((field) => candidate[field])
    .join("|");
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/**
 * Proportional allocation of `size` items over strata of the given `populations`, rounded by
 * largest remainders. While `size` allows (size >= number of non-empty strata) every non-empty
 * stratum gets at least one item: strata whose share is below one are given exactly one and the
 * rest is shared proportionally among the others, repeatedly. Equal remainders are broken by a
 * seeded order, so no stratum is favoured by its name. Never gives a stratum more than it has.
 */
export function allocateProportional(populations: readonly number[], size: number, seed: number): number[] {
  const total = populations.reduce((sum, n) => sum + n, 0);
  if (size >= total) return [...populations];
  const allocation = populations.map(() => 0);
  const nonEmpty = populations.flatMap((n, h) => (n > 0 ? [h] : []));
  const tieOrder = shuffle([...populations.keys()], seededRandom(seed));
  const rank = new Map(tieOrder.map((h, i) => [h, i]));

  const fixed = new Set<number>();
  if (size >= nonEmpty.length) {
    for (;;) {
      const rest = nonEmpty.filter((h) => !fixed.has(h));
      const pool = rest.reduce((sum, h) => sum + (populations[h] ?? 0), 0);
      const share = (size - fixed.size) / pool;
      const small = rest.filter((h) => (populations[h] ?? 0) * share < 1);
      if (small.length === 0) break;
      for (const h of small) fixed.add(h);
    }
    for (const h of fixed) allocation[h] = 1;
  }

  const rest = nonEmpty.filter((h) => !fixed.has(h));
  const pool = rest.reduce((sum, h) => sum + (populations[h] ?? 0), 0);
  const remaining = size - fixed.size;
  const quotas = new Map(rest.map((h) => [h, pool === 0 ? 0 : (remaining * (populations[h] ?? 0)) / pool]));
  let given = 0;
  for (const [h, quota] of quotas) {
    allocation[h] = Math.min(populations[h] ?? 0, Math.floor(quota));
    given += allocation[h] ?? 0;
  }
  const byRemainder = [...quotas.keys()].sort((a, b) => {
    const fraction = (h: number) => (quotas.get(h) ?? 0) - Math.floor(quotas.get(h) ?? 0);
    return fraction(b) - fraction(a) || (rank.get(a) ?? 0) - (rank.get(b) ?? 0);
  });
  // One pass hands out the remainders; a further pass only matters if a cap bit (never in theory).
  while (given < remaining) {
    let progressed = false;
    for (const h of byRemainder) {
      if (given === remaining) break;
      if ((allocation[h] ?? 0) < (populations[h] ?? 0)) {
        allocation[h] = (allocation[h] ?? 0) + 1;
        given += 1;
        progressed = true;
      }
    }
    if (!progressed) break;
  }
  return allocation;
}

/**
 * A stratified random sample of `candidates`: proportional allocation (allocateProportional), a
 * seeded draw within each stratum, then the sample in a seeded random order. Candidates are sorted
 * by run id first, so the order the database returns them in does not change the sample.
 */
export function stratifiedSample(candidates: readonly SampleCandidate[], options: SampleOptions): Sample {
  const size = options.size ?? DEFAULT_SET_SIZE;
  const strata = options.strata ?? STRATUM_FIELDS;
  if (!Number.isInteger(size) || size < 1) {
    throw new AppError("INVALID_INPUT", `stratifiedSample: size must be a whole number >= 1 (got ${size})`);
  }
  const sorted = [...candidates].sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  sorted.forEach((candidate, i) => {
    if (i > 0 && sorted[i - 1]?.runId === candidate.runId) {
      throw new AppError("INVALID_INPUT", `stratifiedSample: run "${candidate.runId}" is a candidate twice`);
    }
  });

  const groups = new Map<string, SampleCandidate[]>();
  for (const candidate of sorted) {
    const key = stratumOf(candidate, strata);
    const group = groups.get(key);
    if (group) group.push(candidate);
    else groups.set(key, [candidate]);
  }
  const keys = [...groups.keys()].sort();
  const populations = keys.map((key) => groups.get(key)?.length ?? 0);
  const counts = allocateProportional(populations, size, options.seed);

  const random = seededRandom(options.seed);
  const drawn: { runId: string; stratum: string }[] = [];
  keys.forEach((key, h) => {
    const members = shuffle([...(groups.get(key) ?? [])], random);
    for (const member of members.slice(0, counts[h] ?? 0)) drawn.push({ runId: member.runId, stratum: key });
  });
  const items = shuffle(drawn, random).map((item, position) => ({ ...item, position }));
  const allocation = keys.map((stratum, h) => ({
    stratum,
    population: populations[h] ?? 0,
    sampled: counts[h] ?? 0,
  }));
  return { items, allocation, population: sorted.length };
}

export interface AssignedItem<T> {
  item: T;
  annotatorIds: number[];
}

/**
 * Gives each item `k` distinct annotators with balanced loads (any two annotators' counts differ
 * by at most one): the annotators, in a seeded order, are dealt round-robin, item i taking the
 * next k of the cycle. k consecutive places of a cycle of length >= k are always distinct.
 */
export function assignAnnotators<T>(
  items: readonly T[],
  annotatorIds: readonly number[],
  k: number,
  seed: number,
): AssignedItem<T>[] {
  if (!Number.isInteger(k) || k < 1) {
    throw new AppError("INVALID_INPUT", `assignAnnotators: annotators per item must be a whole number >= 1 (got ${k})`);
  }
  if (new Set(annotatorIds).size !== annotatorIds.length) {
    throw new AppError("INVALID_INPUT", "assignAnnotators: an annotator is listed twice");
  }
  if (k > annotatorIds.length) {
    throw new AppError(
      "INVALID_INPUT",
      `assignAnnotators: each item needs ${k} distinct annotators but only ${annotatorIds.length} ${
        annotatorIds.length === 1 ? "annotator is" : "annotators are"
      } enrolled`,
    );
  }
  const order = shuffle([...annotatorIds], seededRandom(seed));
  return items.map((item, i) => ({
    item,
    annotatorIds: Array.from({ length: k }, (_, j) => order[(i * k + j) % order.length] as number),
  }));
}
