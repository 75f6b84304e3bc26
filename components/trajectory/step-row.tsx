"use client";
import { memo, type Ref } from "react";
import { anchorHash, anchorId } from "@/lib/runs/anchors";
import { MARK_LABELS, worstSeverity, type ContractMark } from "@/lib/runs/marks";
import { highlightSegments, matchSnippet, normalizeQuery, stepSummary } from "@/lib/runs/step-search";
import type { RunStep } from "@/lib/runs/types";

/** `text` with the query's occurrences in `<mark>`. */
export function Highlighted({ text, query }: { text: string; query: string }) {
  if (query.trim() === "") return <>{text}</>;
  return <>{highlightSegments(text, query).map((s, i) => (s.match ? <mark key={i}>{s.text}</mark> : s.text))}</>;
}

function MarkBadge({ mark }: { mark: ContractMark }) {
  return (
    <span className={`mark mark-${mark.severity}`} title={`${MARK_LABELS[mark.kind]}: ${mark.path}`}>
      {MARK_LABELS[mark.kind]}
    </span>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="step-field">
      <div className="step-label">{label}</div>
      {children}
    </div>
  );
}

function StepBody({ step, query }: { step: RunStep; query: string }) {
  const text = step.text ?? "";
  return (
    <>
      {step.kind === "message" ? (
        <Field label={`${step.role ?? "message"} text`}>
          <pre>
            <Highlighted text={text} query={query} />
          </pre>
        </Field>
      ) : null}
      {step.kind === "tool_call" ? (
        <>
          <Field label="tool">
            <code>
              <Highlighted text={step.toolName ?? "?"} query={query} />
            </code>
          </Field>
          <Field label="arguments">
            <pre className="json">
              <Highlighted text={step.toolArguments ?? "(none)"} query={query} />
            </pre>
          </Field>
        </>
      ) : null}
      {step.kind === "shell" ? (
        <>
          <Field label="command">
            <pre>
              $ <Highlighted text={step.command ?? ""} query={query} />
            </pre>
          </Field>
          <Field label="exit code">
            <span className={step.exitCode === 0 ? "ok" : "error"}>
              {step.exitCode ?? "none (killed or timed out)"}
            </span>
          </Field>
        </>
      ) : null}
      {step.kind === "observation" || step.kind === "shell" ? (
        <Field label={step.kind === "shell" ? "output" : step.isError ? "observation (error)" : "observation"}>
          {text === "" ? (
            <span className="muted">(empty)</span>
          ) : (
            <pre>
              <Highlighted text={text} query={query} />
            </pre>
          )}
        </Field>
      ) : null}
      {step.path !== null ? (
        <Field label="path">
          <code>
            <Highlighted text={step.path} query={query} />
          </code>
        </Field>
      ) : null}
      {step.textLength !== null ? (
        <p className="muted step-cut">
          Showing the first {text.length.toLocaleString("en")} of {step.textLength.toLocaleString("en")} characters; the
          run bundle keeps the whole text.
        </p>
      ) : null}
      {step.marks.length > 0 ? (
        <Field label="boundary contract">
          <ul className="step-marks">
            {step.marks.map((m) => (
              <li key={`${m.kind}:${m.path}`}>
                <span className={`mark mark-${m.severity}`}>{MARK_LABELS[m.kind]}</span> <code>{m.path}</code>
              </li>
            ))}
          </ul>
        </Field>
      ) : null}
    </>
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
  const summary = stepSummary(step);
  const q = normalizeQuery(query);
  // A collapsed step whose summary does not show the match shows where it is.
  const snippet = q !== null && !expanded && !summary.toLowerCase().includes(q) ? matchSnippet(step, query) : null;
  const classes = [
    "step",
    `step-${step.kind}`,
    step.isError ? "step-error" : "",
    severity ? `step-flag-${severity}` : "",
    highlighted ? "step-highlighted" : "",
    current ? "step-current" : "",
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
      <div className="step-head">
        <button
          type="button"
          className="step-toggle"
          aria-expanded={expanded}
          aria-controls={expanded ? bodyId : undefined}
          data-step-toggle={step.stepId}
          onClick={() => onToggle(step.stepId)}
        >
          <span className="step-caret" aria-hidden="true">
            {expanded ? "▾" : "▸"}
          </span>
          <span className="step-id">{step.stepId}</span>
          <span className="step-kind">{step.kind}</span>
          <span className="step-summary">
            <Highlighted text={summary} query={query} />
            {snippet !== null ? (
              <span className="step-snippet">
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
        <div className="step-body" id={bodyId}>
          <StepBody step={step} query={query} />
        </div>
      ) : null}
    </li>
  );
});
