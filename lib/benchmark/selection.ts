/**
 * Seeded, order-independent choices: each item's fate depends only on the seed and its own key,
 * so adding or removing other items never reshuffles it (stable splits across rebuilds).
 */
import { createHash } from "node:crypto";

export function seededHash(key: string): number {
  return createHash("sha256").update(key).digest().readUInt32BE(0);
}

/** A deterministic permutation: items ordered by the hash of (salt, item). */
export function seededShuffle<T>(
  items: readonly T[],
  salt: string,
  keyOf: (item: T) => string = (item) => JSON.stringify(item),
): T[] {
  return items
    .map((item) => ({ item, rank: seededHash(`${salt}\0${keyOf(item)}`), key: keyOf(item) }))
    .sort((a, b) => a.rank - b.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.item);
}

/** The ids of the evaluation split: per subtask, the `size` instances with the lowest seeded rank. */
export function evaluationSplit(ids: readonly string[], seed: number, size: number): Set<string> {
  return new Set(seededShuffle(ids, `${seed}:split`, (id) => id).slice(0, size));
}

export function paraphraseIndex(instanceId: string, seed: number, count: number): number {
  return seededHash(`${seed}:paraphrase:${instanceId}`) % count;
}
