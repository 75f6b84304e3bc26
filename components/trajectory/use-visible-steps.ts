import { useMemo } from "react";
import { worstSeverity } from "@/lib/runs/marks";
import { matchingPositions, normalizeQuery, stepHaystack } from "@/lib/runs/step-search";
import type { RunStep } from "@/lib/runs/types";

export interface VisibleSteps {
  /** The normalized search, null when there is none. */
  q: string | null;
  /** Positions in `steps` of the steps with a violation or a warning. */
  flagged: number[];
  /** Positions of the steps matching the search. */
  matches: number[];
  /** What the list shows, as positions in `steps`. */
  visible: number[];
  /** Position in `steps` -> index in `visible`. */
  visibleIndex: Map<number, number>;
  /** Matches that can be jumped to: the ones on the list. */
  reachable: number[];
  /** Step id -> position in `steps`. */
  positionOf: Map<string, number>;
}

/** Which steps the trajectory list shows for a search and its two filters. */
export function useVisibleSteps(
  steps: RunStep[],
  query: string,
  onlyMatches: boolean,
  onlyFlagged: boolean,
): VisibleSteps {
  const haystacks = useMemo(() => steps.map(stepHaystack), [steps]);
  const positionOf = useMemo(() => new Map(steps.map((s, i) => [s.stepId, i])), [steps]);
  // Steps the "only boundary flags" filter keeps: a violation or a warning (required reads are not flags).
  const flagged = useMemo(
    () =>
      steps.flatMap((s, i) => {
        const worst = worstSeverity(s.marks);
        return worst === "violation" || worst === "warn" ? [i] : [];
      }),
    [steps],
  );
  const q = normalizeQuery(query);
  const matches = useMemo(() => (q === null ? [] : matchingPositions(haystacks, q)), [haystacks, q]);
  const visible = useMemo(() => {
    let list = onlyFlagged ? flagged : steps.map((_, i) => i);
    if (q !== null && onlyMatches) {
      const hit = new Set(matches);
      list = list.filter((i) => hit.has(i));
    }
    return list;
  }, [steps, flagged, onlyFlagged, q, onlyMatches, matches]);
  const visibleIndex = useMemo(() => new Map(visible.map((p, i) => [p, i])), [visible]);
  const reachable = useMemo(() => matches.filter((p) => visibleIndex.has(p)), [matches, visibleIndex]);
  return { q, flagged, matches, visible, visibleIndex, reachable, positionOf };
}
