"use client";
/**
 * The trajectory of a run: every step in a virtualized list (thousands of steps stay smooth),
 * searchable, filterable to boundary flags, each step collapsible and linkable (`#step-<id>`).
 * Keyboard: Tab reaches the steps, ArrowUp/ArrowDown/Home/End move between them, Enter or Space
 * opens one; in the search box Enter and Shift+Enter go to the next and previous match.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { worstSeverity } from "@/lib/runs/marks";
import { matchingPositions, normalizeQuery, stepHaystack } from "@/lib/runs/step-search";
import type { RunStep } from "@/lib/runs/types";
import { anchorUrl, copyText, setAnchor, useRunAnchor } from "./run-navigation";
import { StepRow } from "./step-row";
import { TrajectoryToolbar } from "./trajectory-toolbar";

/** Focus a step's toggle once the virtualizer has rendered it (a few frames at most). */
function focusStep(stepId: string, tries = 20): void {
  const button = document.querySelector<HTMLButtonElement>(`[data-step-toggle="${CSS.escape(stepId)}"]`);
  if (button) button.focus({ preventScroll: true });
  else if (tries > 0) requestAnimationFrame(() => focusStep(stepId, tries - 1));
}

export function TrajectoryViewer({ steps }: { steps: RunStep[] }) {
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const [onlyMatches, setOnlyMatches] = useState(true);
  const [onlyFlagged, setOnlyFlagged] = useState(false);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [currentMatch, setCurrentMatch] = useState(0);
  const [copied, setCopied] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const sectionRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

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
  const q = normalizeQuery(deferredQuery);
  const matches = useMemo(() => (q === null ? [] : matchingPositions(haystacks, q)), [haystacks, q]);

  // What the list shows, as positions in `steps`.
  const visible = useMemo(() => {
    let list = onlyFlagged ? flagged : steps.map((_, i) => i);
    if (q !== null && onlyMatches) {
      const hit = new Set(matches);
      list = list.filter((i) => hit.has(i));
    }
    return list;
  }, [steps, flagged, onlyFlagged, q, onlyMatches, matches]);
  const visibleIndex = useMemo(() => new Map(visible.map((p, i) => [p, i])), [visible]);
  // Matches that can be jumped to: the ones on the list.
  const reachable = useMemo(() => matches.filter((p) => visibleIndex.has(p)), [matches, visibleIndex]);
  const current = reachable.length === 0 ? null : reachable[Math.min(currentMatch, reachable.length - 1)]!;

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

  const goToMatch = (n: number) => {
    if (reachable.length === 0) return;
    const k = ((n % reachable.length) + reachable.length) % reachable.length;
    setCurrentMatch(k);
    scrollToPosition(reachable[k]!, false);
  };

  const onQuery = (value: string) => {
    setQuery(value);
    setCurrentMatch(0);
    scrollRef.current?.scrollTo({ top: 0 });
  };

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

  useRunAnchor((anchor) => {
    if (anchor.kind !== "step") return;
    const position = positionOf.get(anchor.stepId);
    if (position === undefined) {
      setNotice(`This run has no step “${anchor.stepId}”.`);
      sectionRef.current?.scrollIntoView({ block: "start" });
      return;
    }
    setNotice(null);
    setExpanded((old) => new Set(old).add(anchor.stepId));
    setHighlighted(anchor.stepId);
    sectionRef.current?.scrollIntoView({ block: "start" });
    if (!visibleIndex.has(position)) {
      setOnlyFlagged(false);
      setOnlyMatches(false);
    }
    pending.current = anchor.stepId;
    // A render is due anyway (the step expands); the effect above scrolls after it.
  });

  const onToggle = useCallback((stepId: string) => {
    setExpanded((old) => {
      const next = new Set(old);
      if (!next.delete(stepId)) next.add(stepId);
      return next;
    });
  }, []);

  const onCopyLink = useCallback((stepId: string) => {
    const anchor = { kind: "step", stepId } as const;
    setAnchor(anchor);
    setHighlighted(stepId);
    void copyText(anchorUrl(anchor)).then((ok) => {
      setCopied(ok ? stepId : null);
      if (ok) setTimeout(() => setCopied((c) => (c === stepId ? null : c)), 1500);
    });
  }, []);

  const onListKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const stepId = target.dataset.stepToggle;
    if (stepId === undefined) return;
    const index = visibleIndex.get(positionOf.get(stepId) ?? -1);
    if (index === undefined) return;
    const to =
      event.key === "ArrowDown"
        ? index + 1
        : event.key === "ArrowUp"
          ? index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? visible.length - 1
              : null;
    if (to === null || to < 0 || to >= visible.length) return;
    event.preventDefault();
    virtualizer.scrollToIndex(to, { align: "auto" });
    focusStep(steps[visible[to]!]!.stepId);
  };

  if (steps.length === 0) {
    return (
      <div className="empty-state" data-testid="trajectory-empty">
        <strong>No trajectory.</strong> This run recorded no steps: the agent may have failed before its first model
        call, or the bundle was imported without a trajectory.
      </div>
    );
  }

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={sectionRef} className="trajectory" data-testid="trajectory">
      <TrajectoryToolbar
        query={query}
        onQuery={onQuery}
        total={steps.length}
        shown={visible.length}
        matchCount={q === null ? null : matches.length}
        currentMatch={current === null ? null : reachable.indexOf(current)}
        reachable={reachable.length}
        onNext={() => goToMatch((current === null ? -1 : reachable.indexOf(current)) + 1)}
        onPrevious={() => goToMatch((current === null ? 0 : reachable.indexOf(current)) - 1)}
        onlyMatches={onlyMatches}
        onOnlyMatches={setOnlyMatches}
        onlyFlagged={onlyFlagged}
        onOnlyFlagged={setOnlyFlagged}
        flaggedCount={flagged.length}
        onCollapseAll={() => setExpanded(new Set())}
      />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <div ref={scrollRef} className="trajectory-scroll" onKeyDown={onListKey} data-testid="trajectory-scroll">
        {visible.length === 0 ? (
          <p className="empty-state" data-testid="trajectory-no-match">
            {onlyFlagged && q === null
              ? "No step reads or writes outside the boundary contract."
              : `No step matches “${deferredQuery.trim()}”${onlyFlagged ? " among the flagged steps" : ""}.`}
          </p>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            <ol
              className="steps"
              aria-label="Trajectory steps"
              style={{
                position: "absolute",
                top: 0,
                left: 0,
                right: 0,
                transform: `translateY(${items[0]?.start ?? 0}px)`,
              }}
            >
              {items.map((item) => {
                const position = visible[item.index]!;
                const step = steps[position]!;
                return (
                  <StepRow
                    key={item.key}
                    rowRef={virtualizer.measureElement}
                    step={step}
                    index={item.index}
                    setSize={visible.length}
                    expanded={expanded.has(step.stepId)}
                    highlighted={highlighted === step.stepId}
                    current={current === position}
                    copied={copied === step.stepId}
                    query={q === null ? "" : deferredQuery}
                    onToggle={onToggle}
                    onCopyLink={onCopyLink}
                  />
                );
              })}
            </ol>
          </div>
        )}
      </div>
    </div>
  );
}
