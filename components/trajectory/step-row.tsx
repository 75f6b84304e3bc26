"use client";
import { memo, type Ref } from "react";
import { anchorHash, anchorId } from "@/lib/runs/anchors";
import { MARK_LABELS, worstSeverity, type ContractMark } from "@/lib/runs/marks";
import { matchSnippet, normalizeQuery, stepSummary } from "@/lib/runs/step-search";
import type { RunStep } from "@/lib/runs/types";
import { Highlighted } from "./steps/highlighted";
import { StepBody } from "./steps/step-body";
import styles from "./trajectory.module.css";

function MarkBadge({ mark }: { mark: ContractMark }) {
  return (
    <span className={`mark mark-${mark.severity}`} title={`${MARK_LABELS[mark.kind]}: ${mark.path}`}>
      {MARK_LABELS[mark.kind]}
    </span>
  );
}

interface StepToggleProps {
  step: RunStep;
  expanded: boolean;
  bodyId: string;
  query: string;
  onToggle: (stepId: string) => void;
}

/** The one-line summary that opens and closes a step: id, kind, summary (or where the match is), badges. */
function StepToggle({ step, expanded, bodyId, query, onToggle }: StepToggleProps) {
  const summary = stepSummary(step);
  const q = normalizeQuery(query);
  // A collapsed step whose summary does not show the match shows where it is.
  const snippet = q !== null && !expanded && !summary.toLowerCase().includes(q) ? matchSnippet(step, query) : null;
  return (
    <button
      type="button"
      className={`${styles.toggle} step-toggle`}
      aria-expanded={expanded}
      aria-controls={expanded ? bodyId : undefined}
      data-step-toggle={step.stepId}
      onClick={() => onToggle(step.stepId)}
    >
      <span className={styles.caret} aria-hidden="true">
        {expanded ? "▾" : "▸"}
      </span>
      <span className={styles.id}>{step.stepId}</span>
      <span className={styles.kind}>{step.kind}</span>
      <span className={styles.summary}>
        <Highlighted text={summary} query={query} />
        {snippet !== null ? (
          <span className={styles.snippet}>
            {" "}
            <Highlighted text={snippet} query={query} />
          </span>
        ) : null}
      </span>
      {step.kind === "shell" ? (
        <span className={`exit ${step.exitCode === 0 ? "exit-ok" : "exit-bad"}`}>exit {step.exitCode ?? "?"}</span>
      ) : null}
      {step.kind === "observation" && step.isError ? <span className="exit exit-bad">error</span> : null}
      {step.marks
        .filter((m) => m.severity !== "ok")
        .slice(0, 2)
        .map((m) => (
          <MarkBadge key={`${m.kind}:${m.path}`} mark={m} />
        ))}
    </button>
  );
}

export interface StepRowProps {
  step: RunStep;
  /** Position in the rendered (possibly filtered) list. */
  index: number;
  setSize: number;
  expanded: boolean;
  highlighted: boolean;
  current: boolean;
  copied: boolean;
  query: string;
  rowRef: Ref<HTMLLIElement>;
  onToggle: (stepId: string) => void;
  onCopyLink: (stepId: string) => void;
}

/** One trajectory step: a one-line summary that toggles the full step, and a copy-link anchor. */
export const StepRow = memo(function StepRow({
  step,
  index,
  setSize,
  expanded,
  highlighted,
  current,
  copied,
  query,
  rowRef,
  onToggle,
  onCopyLink,
}: StepRowProps) {
  const anchor = { kind: "step", stepId: step.stepId } as const;
  const severity = worstSeverity(step.marks);
  const bodyId = `${anchorId(anchor)}-body`;
  // The plain `step-flag-<severity>`, `step-highlighted` and `step-current` classes stay beside the
  // module's: the run-detail e2e spec checks a row's state by them.
  const classes = [
    styles.step,
    severity === "violation" ? styles.flagViolation : severity === "warn" ? styles.flagWarn : "",
    severity ? `step-flag-${severity}` : "",
    highlighted ? `${styles.highlighted} step-highlighted` : "",
    current ? `${styles.current} step-current` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <li
      ref={rowRef}
      id={anchorId(anchor)}
      data-index={index}
      data-testid="step"
      data-step-id={step.stepId}
      className={classes}
      aria-posinset={index + 1}
      aria-setsize={setSize}
    >
      <div className={styles.head}>
        <StepToggle step={step} expanded={expanded} bodyId={bodyId} query={query} onToggle={onToggle} />
        <a
          className="step-link"
          href={anchorHash(anchor)}
          aria-label={`Copy a link to step ${step.stepId}`}
          title={copied ? "Link copied" : "Copy a link to this step"}
          onClick={(event) => {
            event.preventDefault();
            onCopyLink(step.stepId);
          }}
        >
          {copied ? "copied" : "#"}
        </a>
      </div>
      {expanded ? (
        <div className={styles.body} id={bodyId}>
          <StepBody step={step} query={query} />
        </div>
      ) : null}
    </li>
  );
});
