"use client";
/**
 * The trajectory of a run: every step in a virtualized list (thousands of steps stay smooth),
 * searchable, filterable to boundary flags, each step collapsible and linkable (`#step-<id>`).
 * Keyboard: Tab reaches the steps, ArrowUp/ArrowDown/Home/End move between them, Enter or Space
 * opens one; in the search box Enter and Shift+Enter go to the next and previous match.
 */
import { useCallback, useDeferredValue, useRef, useState } from "react";
import type { RunStep } from "@/lib/runs/types";
import { anchorUrl, copyText, setAnchor, useRunAnchor } from "./run-navigation";
import { StepList } from "./step-list";
import styles from "./trajectory.module.css";
import { TrajectoryToolbar } from "./trajectory-toolbar";
import { useStepScroll } from "./use-step-scroll";
import { useVisibleSteps } from "./use-visible-steps";

function NoTrajectory() {
  return (
    <div className="empty-state" data-testid="trajectory-empty">
      <strong>No trajectory.</strong> This run recorded no steps: the agent may have failed before its first model call,
      or the bundle was imported without a trajectory.
    </div>
  );
}

function NoMatch({ searched, query, onlyFlagged }: { searched: boolean; query: string; onlyFlagged: boolean }) {
  return (
    <p className={`empty-state ${styles.empty}`} data-testid="trajectory-no-match">
      {onlyFlagged && !searched
        ? "No step reads or writes outside the boundary contract."
        : `No step matches “${query.trim()}”${onlyFlagged ? " among the flagged steps" : ""}.`}
    </p>
  );
}

/** Which steps are open, which one a link pointed at, and which one's link was just copied. */
function useStepMarks() {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
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
  return { expanded, setExpanded, highlighted, setHighlighted, copied, onToggle, onCopyLink };
}

/** The current search match among the reachable ones, and stepping to the next or previous (wrapping). */
function useMatchCursor(reachable: number[], scrollToPosition: (position: number, focus: boolean) => void) {
  const [currentMatch, setCurrentMatch] = useState(0);
  const current = reachable.length === 0 ? null : reachable[Math.min(currentMatch, reachable.length - 1)]!;
  const index = current === null ? null : reachable.indexOf(current);
  const goTo = (n: number) => {
    if (reachable.length === 0) return;
    const k = ((n % reachable.length) + reachable.length) % reachable.length;
    setCurrentMatch(k);
    scrollToPosition(reachable[k]!, false);
  };
  return {
    current,
    index,
    next: () => goTo((index ?? -1) + 1),
    previous: () => goTo((index ?? 0) - 1),
    reset: () => setCurrentMatch(0),
  };
}

export function TrajectoryViewer({ steps }: { steps: RunStep[] }) {
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const [onlyMatches, setOnlyMatches] = useState(true);
  const [onlyFlagged, setOnlyFlagged] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const marks = useStepMarks();
  const sectionRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const view = useVisibleSteps(steps, deferredQuery, onlyMatches, onlyFlagged);
  const { q, flagged, matches, visible, visibleIndex, reachable, positionOf } = view;
  const scroll = useStepScroll(steps, view, scrollRef, onlyMatches);
  const match = useMatchCursor(reachable, scroll.scrollToPosition);

  const onQuery = (value: string) => {
    setQuery(value);
    match.reset();
    scrollRef.current?.scrollTo({ top: 0 });
  };

  useRunAnchor((anchor) => {
    if (anchor.kind !== "step") return;
    const position = positionOf.get(anchor.stepId);
    sectionRef.current?.scrollIntoView({ block: "start" });
    if (position === undefined) {
      setNotice(`This run has no step “${anchor.stepId}”.`);
      return;
    }
    setNotice(null);
    marks.setExpanded((old) => new Set(old).add(anchor.stepId));
    marks.setHighlighted(anchor.stepId);
    if (!visibleIndex.has(position)) {
      setOnlyFlagged(false);
      setOnlyMatches(false);
    }
    // A render is due anyway (the step expands); the scroll happens after it.
    scroll.scrollAfterRender(anchor.stepId);
  });

  if (steps.length === 0) return <NoTrajectory />;
  return (
    <div ref={sectionRef} className={styles.trajectory} data-testid="trajectory">
      <TrajectoryToolbar
        query={query}
        onQuery={onQuery}
        total={steps.length}
        shown={visible.length}
        matchCount={q === null ? null : matches.length}
        currentMatch={match.index}
        reachable={reachable.length}
        onNext={match.next}
        onPrevious={match.previous}
        onlyMatches={onlyMatches}
        onOnlyMatches={setOnlyMatches}
        onlyFlagged={onlyFlagged}
        onOnlyFlagged={setOnlyFlagged}
        flaggedCount={flagged.length}
        onCollapseAll={() => marks.setExpanded(new Set())}
      />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <div ref={scrollRef} className={styles.scroll} onKeyDown={scroll.onListKey} data-testid="trajectory-scroll">
        {visible.length === 0 ? (
          <NoMatch searched={q !== null} query={deferredQuery} onlyFlagged={onlyFlagged} />
        ) : (
          <StepList
            virtualizer={scroll.virtualizer}
            steps={steps}
            visible={visible}
            expanded={marks.expanded}
            highlighted={marks.highlighted}
            current={match.current}
            copied={marks.copied}
            query={q === null ? "" : deferredQuery}
            onToggle={marks.onToggle}
            onCopyLink={marks.onCopyLink}
          />
        )}
      </div>
    </div>
  );
}
