"use client";
import { HUMAN_LABELS as LABEL_VALUES, type HumanLabel as LabelValue } from "@/lib/agreement/study-schema";
import styles from "./label-form.module.css";

export const VALUE_TEXT: Record<LabelValue, { label: string; key: string }> = {
  violated: { label: "Violated", key: "v" },
  not_violated: { label: "Not violated", key: "n" },
  cannot_tell: { label: "Cannot tell", key: "c" },
};

export interface LabelMetric {
  id: string;
  label: string;
  guideline: string;
}

export type SaveState = "idle" | "saving" | "saved" | "error";

const SAVE_TEXT: Record<SaveState, string> = { idle: "", saving: "saving…", saved: "saved", error: "not saved" };

export interface LabelRowProps {
  metric: LabelMetric;
  current: { value: LabelValue | null; note: string } | undefined;
  saveState: SaveState;
  active: boolean;
  disabled: boolean;
  rowRef: (el: HTMLFieldSetElement | null) => void;
  onFocus: () => void;
  onChoose: (value: LabelValue) => void;
  onNote: (note: string) => void;
}

/** One metric of the item: its guideline, the three choices, the save state and a rationale. */
export function LabelRow({ metric, current, saveState, active, disabled, rowRef, ...on }: LabelRowProps) {
  return (
    <fieldset
      ref={rowRef}
      tabIndex={-1}
      className={active ? `${styles.row} ${styles.rowActive}` : styles.row}
      data-testid="label-row"
      data-metric={metric.id}
      data-value={current?.value ?? ""}
      onFocus={on.onFocus}
      disabled={disabled}
    >
      <legend>{metric.label}</legend>
      <p className={styles.guideline}>{metric.guideline}</p>
      <div className={styles.choices} role="radiogroup" aria-label={metric.label}>
        {LABEL_VALUES.map((value) => (
          <label key={value}>
            <input
              type="radio"
              name={`label-${metric.id}`}
              value={value}
              checked={current?.value === value}
              onChange={() => on.onChoose(value)}
            />
            {VALUE_TEXT[value].label} <kbd>{VALUE_TEXT[value].key}</kbd>
          </label>
        ))}
        <span
          className={saveState === "error" ? `${styles.saveState} ${styles.saveError}` : styles.saveState}
          data-testid="save-state"
          aria-live="polite"
        >
          {SAVE_TEXT[saveState]}
        </span>
      </div>
      <label className={styles.rationale}>
        <span>Rationale</span>
        <textarea
          id={`note-${metric.id}`}
          rows={2}
          value={current?.note ?? ""}
          onChange={(e) => on.onNote(e.target.value)}
          maxLength={5000}
        />
      </label>
    </fieldset>
  );
}
