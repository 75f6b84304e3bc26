"use client";
import styles from "./trajectory.module.css";

export interface TrajectoryToolbarProps {
  query: string;
  onQuery: (value: string) => void;
  total: number;
  shown: number;
  /** Steps matching the search; null when there is no search. */
  matchCount: number | null;
  /** 0-based index of the current match among the reachable ones. */
  currentMatch: number | null;
  reachable: number;
  onNext: () => void;
  onPrevious: () => void;
  onlyMatches: boolean;
  onOnlyMatches: (value: boolean) => void;
  onlyFlagged: boolean;
  onOnlyFlagged: (value: boolean) => void;
  flaggedCount: number;
  onCollapseAll: () => void;
}

/** Search box, match counter and navigation, and the list's filters. */
export function TrajectoryToolbar(props: TrajectoryToolbarProps) {
  const { matchCount, currentMatch, reachable } = props;
  const status =
    matchCount === null
      ? `${props.shown.toLocaleString("en")} of ${props.total.toLocaleString("en")} steps`
      : matchCount === 0
        ? "no match"
        : `${currentMatch === null ? "–" : (currentMatch + 1).toLocaleString("en")} / ${reachable.toLocaleString("en")} match${reachable === 1 ? "" : "es"}`;
  return (
    <div className={styles.toolbar} role="search">
      <input
        type="search"
        value={props.query}
        placeholder="Search text, tools, arguments, commands, paths"
        aria-label="Search the trajectory"
        aria-describedby="trajectory-search-status"
        data-testid="trajectory-search"
        onChange={(e) => props.onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            if (e.shiftKey) props.onPrevious();
            else props.onNext();
          } else if (e.key === "Escape" && props.query !== "") {
            e.preventDefault();
            props.onQuery("");
          }
        }}
      />
      <button type="button" onClick={props.onPrevious} disabled={reachable === 0} aria-label="Previous match">
        ↑
      </button>
      <button type="button" onClick={props.onNext} disabled={reachable === 0} aria-label="Next match">
        ↓
      </button>
      <span
        id="trajectory-search-status"
        className={`muted ${styles.searchStatus}`}
        data-testid="search-count"
        aria-live="polite"
      >
        {status}
      </span>
      <label className={styles.check}>
        <input type="checkbox" checked={props.onlyMatches} onChange={(e) => props.onOnlyMatches(e.target.checked)} />{" "}
        only matching steps
      </label>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={props.onlyFlagged}
          onChange={(e) => props.onOnlyFlagged(e.target.checked)}
          data-testid="only-flagged"
        />{" "}
        only boundary flags ({props.flaggedCount.toLocaleString("en")})
      </label>
      <button type="button" className="link-button" onClick={props.onCollapseAll}>
        Collapse all
      </button>
    </div>
  );
}
