import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef, type KeyboardEvent, type RefObject } from "react";
import type { RunStep } from "@/lib/runs/types";
import type { VisibleSteps } from "./use-visible-steps";

/** Focus a step's toggle once the virtualizer has rendered it (a few frames at most). */
function focusStep(stepId: string, tries = 20): void {
  const button = document.querySelector<HTMLButtonElement>(`[data-step-toggle="${CSS.escape(stepId)}"]`);
  if (button) button.focus({ preventScroll: true });
  else if (tries > 0) requestAnimationFrame(() => focusStep(stepId, tries - 1));
}

/** The key that moves from list index `index` of `count`, or null for any other key. */
function keyTarget(key: string, index: number, count: number): number | null {
  if (key === "ArrowDown") return index + 1;
  if (key === "ArrowUp") return index - 1;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

/**
 * The virtualized list's scrolling: bringing a step into view (now, or once the filters show it),
 * the first match of a new search, and ArrowUp/ArrowDown/Home/End between steps.
 */
export function useStepScroll(
  steps: RunStep[],
  view: VisibleSteps,
  scrollRef: RefObject<HTMLDivElement | null>,
  onlyMatches: boolean,
) {
  const { visible, visibleIndex, positionOf, reachable, q } = view;
  // No React Compiler in this app; the one function handed to memoized rows (measureElement) is stable.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 33,
    // The server renders the first screenful, before the scroll element can be measured.
    initialRect: { width: 1200, height: 700 },
    overscan: 12,
    getItemKey: (i) => steps[visible[i]!]!.stepId,
  });

  const scrollToPosition = useCallback(
    (position: number, focus: boolean) => {
      const index = visibleIndex.get(position);
      if (index === undefined) return;
      virtualizer.scrollToIndex(index, { align: "center" });
      if (focus) focusStep(steps[position]!.stepId);
    },
    [virtualizer, visibleIndex, steps],
  );

  // A step to bring into view once the list shows it (after filters were cleared, if need be).
  const pending = useRef<string | null>(null);
  useEffect(() => {
    const stepId = pending.current;
    const position = stepId === null ? undefined : positionOf.get(stepId);
    if (stepId === null || position === undefined || !visibleIndex.has(position)) return;
    pending.current = null;
    scrollToPosition(position, true);
  });

  // With every step listed, a new search brings its first match into view.
  const scrolledFor = useRef<string | null>(null);
  useEffect(() => {
    if (q === scrolledFor.current) return;
    scrolledFor.current = q;
    if (q !== null && !onlyMatches && reachable.length > 0) scrollToPosition(reachable[0]!, false);
  });

  const onListKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const stepId = (event.target as HTMLElement).dataset.stepToggle;
    if (stepId === undefined) return;
    const index = visibleIndex.get(positionOf.get(stepId) ?? -1);
    if (index === undefined) return;
    const to = keyTarget(event.key, index, visible.length);
    if (to === null || to < 0 || to >= visible.length) return;
    event.preventDefault();
    virtualizer.scrollToIndex(to, { align: "auto" });
    focusStep(steps[visible[to]!]!.stepId);
  };

  /** Scrolls to the step after the next render (which may first clear the filters). */
  const scrollAfterRender = (stepId: string) => {
    pending.current = stepId;
  };

  return { virtualizer, scrollToPosition, scrollAfterRender, onListKey };
}
