"use client";
import { useRef } from "react";
import type { HumanLabel as LabelValue } from "@/lib/agreement/study-schema";
import type { LabelActionResult } from "@/lib/agreement/study-types";
import styles from "./label-form.module.css";
import { LabelRow, type LabelMetric } from "./label-row";
import { useLabelKeys } from "./use-label-keys";
import { useLabels } from "./use-labels";

export interface LabelFormProps {
  setId: number;
  runId: string;
  metrics: LabelMetric[];
  initial: Record<string, { value: LabelValue | null; note: string }>;
  submitted: boolean;
  saveAction: (input: {
    setId: number;
    runId: string;
    metric: string;
    value: LabelValue;
    note: string;
  }) => Promise<LabelActionResult>;
  submitAction: (input: { setId: number; runId: string }) => Promise<LabelActionResult>;
  previousHref: string | null;
  nextHref: string | null;
  /** Where to go after submitting: the next item not yet submitted. */
  nextUnfinishedHref: string | null;
}

function ShortcutHelp() {
  return (
    <p className={`muted ${styles.shortcutHelp}`}>
      Keys: <kbd>↑</kbd>/<kbd>↓</kbd> metric · <kbd>v</kbd> violated · <kbd>n</kbd> not violated · <kbd>c</kbd> cannot
      tell · <kbd>r</kbd> rationale · <kbd>[</kbd>/<kbd>]</kbd> previous/next item · <kbd>Ctrl</kbd>+<kbd>Enter</kbd>{" "}
      submit
    </p>
  );
}

/** After submitting: the way to the next unfinished item. */
function Submitted({ nextUnfinishedHref }: { nextUnfinishedHref: string | null }) {
  return (
    <p className="notice" data-testid="submitted">
      Submitted. Your labels for this item are final.{" "}
      {nextUnfinishedHref ? (
        <a href={nextUnfinishedHref} data-testid="next-unfinished">
          Next item to label <kbd>]</kbd>
        </a>
      ) : (
        "You have submitted every item."
      )}
    </p>
  );
}

/**
 * One item's labels: a row per applicable metric with its guideline, three choices and a rationale.
 * Every change is saved at once (rationales after a short pause). Keyboard: ↑/↓ or j/k pick a
 * metric, v / n / c label it, r edits its rationale (Esc leaves), [ and ] go to the previous and
 * next item, Ctrl+Enter submits.
 */
export function LabelForm(props: LabelFormProps) {
  const { metrics, submitted } = props;
  const rows = useRef<(HTMLFieldSetElement | null)[]>([]);
  const form = useLabels(props);
  const { active, rowFocused } = useLabelKeys({ ...props, rows, choose: form.choose, submit: form.submit });

  return (
    <div className={styles.form} data-testid="label-form">
      <ShortcutHelp />
      {metrics.map((metric, i) => (
        <LabelRow
          key={metric.id}
          metric={metric}
          current={form.labels[metric.id]}
          saveState={form.state[metric.id] ?? "idle"}
          active={i === active}
          disabled={submitted}
          rowRef={(el) => {
            rows.current[i] = el;
          }}
          onFocus={() => rowFocused(i)}
          onChoose={(value) => form.choose(metric.id, value)}
          onNote={(note) => form.editNote(metric.id, note)}
        />
      ))}
      {form.error ? (
        <p className="notice notice-error" role="alert" data-testid="label-error">
          {form.error}
        </p>
      ) : null}
      {submitted ? (
        <Submitted nextUnfinishedHref={props.nextUnfinishedHref} />
      ) : (
        <button type="button" onClick={form.submit} disabled={!form.complete || form.pending} data-testid="submit-item">
          {form.complete ? "Submit item" : `Label every metric to submit (${form.labelled}/${metrics.length})`}
        </button>
      )}
    </div>
  );
}
