import type { Label } from "./categories";

/**
 * - `unanimous`: every label given is the same.
 * - `split`: one label has strictly more votes than any other, but not all (a 2-1 split of three).
 * - `tie`: two or more labels share the top count (1-1-1 of three, 2-2 of four); no majority label.
 * - `empty`: no labels at all.
 */
export type MajorityKind = "unanimous" | "split" | "tie" | "empty";

export interface MajorityVote<L extends Label> {
  /** The most frequent label, or null on a tie or with no labels. */
  label: L | null;
  kind: MajorityKind;
  /** Votes for the top label(s). */
  votes: number;
  /** Labels counted (nulls excluded). */
  total: number;
}

/**
 * Majority label of one item's annotations. `null` entries (not labeled) are ignored; filter
 * "cannot tell" to null first if it should not take part in the vote. The winner is the strict
 * plurality; with three annotators and a binary label that is always a majority of 2 or 3, and
 * callers needing a stricter rule can compare `votes` with `total`.
 */
export function majorityVote<L extends Label>(labels: readonly (L | null)[]): MajorityVote<L> {
  const counts = new Map<L, number>();
  for (const label of labels) {
    if (label !== null) counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  let label: L | null = null;
  let votes = 0;
  let tied = false;
  for (const [candidate, count] of counts) {
    if (count > votes) {
      label = candidate;
      votes = count;
      tied = false;
    } else if (count === votes) {
      tied = true;
    }
  }
  const total = labels.filter((l) => l !== null).length;
  if (total === 0) return { label: null, kind: "empty", votes: 0, total };
  if (tied) return { label: null, kind: "tie", votes, total };
  return { label, kind: votes === total ? "unanimous" : "split", votes, total };
}
