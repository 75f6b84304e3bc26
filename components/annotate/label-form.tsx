"use client";
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { HUMAN_LABELS as LABEL_VALUES, type HumanLabel as LabelValue } from "@/lib/agreement/study-schema";
import type { LabelActionResult } from "@/lib/agreement/study-types";

const VALUE_TEXT: Record<LabelValue, { label: string; key: string }> = {
  violated: { label: "Violated", key: "v" },
  not_violated: { label: "Not violated", key: "n" },
  cannot_tell: { label: "Cannot tell", key: "c" },
};

export interface LabelMetric {
  id: string;
  label: string;
  guideline: string;
}

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

type SaveState = "idle" | "saving" | "saved" | "error";

/**
 * One item's labels: a row per applicable metric with its guideline, three choices and a rationale.
 * Every change is saved at once (rationales after a short pause). Keyboard: ↑/↓ or j/k pick a
 * metric, v / n / c label it, r edits its rationale (Esc leaves), [ and ] go to the previous and
 * next item, Ctrl+Enter submits.
 */
export function LabelForm(props: LabelFormProps) {
  const { setId, runId, metrics, submitted } = props;
  const router = useRouter();
  const [labels, setLabels] = useState(props.initial);
  const [active, setActive] = useState(0);
  const [state, setState] = useState<Record<string, SaveState>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const noteTimers = useRef<Record<string, ReturnType<typeof setTimeout>>>({});
  const rows = useRef<(HTMLFieldSetElement | null)[]>([]);

  const save = useCallback(
    async (metric: string, value: LabelValue, note: string) => {
      setState((s) => ({ ...s, [metric]: "saving" }));
      const result = await props.saveAction({ setId, runId, metric, value, note });
      setState((s) => ({ ...s, [metric]: result.ok ? "saved" : "error" }));
      setError(result.ok ? null : result.error);
    },
    [props, setId, runId],
  );

  const choose = useCallback(
    (metric: string, value: LabelValue) => {
      if (submitted) return;
      const note = labels[metric]?.note ?? "";
      setLabels((l) => ({ ...l, [metric]: { value, note } }));
      void save(metric, value, note);
    },
    [labels, save, submitted],
  );

  const editNote = (metric: string, note: string) => {
    const value = labels[metric]?.value ?? null;
    setLabels((l) => ({ ...l, [metric]: { value, note } }));
    clearTimeout(noteTimers.current[metric]);
    // A rationale is saved with its label; without a label yet it waits for one.
    if (value)
      noteTimers.current[metric] = setTimeout(() => {
        delete noteTimers.current[metric];
        void save(metric, value, note);
      }, 600);
  };

  const complete = metrics.every((m) => labels[m.id]?.value);
  const submit = useCallback(() => {
    if (submitted || !complete) return;
    startTransition(async () => {
      // A rationale still waiting for its autosave goes first: after submit the labels are final.
      for (const [metric, timer] of Object.entries(noteTimers.current)) {
        clearTimeout(timer);
        delete noteTimers.current[metric];
        const label = labels[metric];
        if (label?.value) await save(metric, label.value, label.note);
      }
      const result = await props.submitAction({ setId, runId });
      if (!result.ok) setError(result.error);
      // Stay to see what the judges and the others said; the refresh brings the reveal panel.
      else router.refresh();
    });
  }, [complete, labels, props, router, runId, save, setId, submitted]);

  useEffect(() => {
    rows.current[active]?.focus();
  }, [active]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (target.tagName === "TEXTAREA" || target.tagName === "INPUT" || target.tagName === "SELECT") {
        if (event.key === "Escape") rows.current[active]?.focus();
        return;
      }
      if ((event.ctrlKey || event.metaKey) && event.key === "Enter") return void (event.preventDefault(), submit());
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const metric = metrics[active];
      if (event.key === "ArrowDown" || event.key === "j") setActive((i) => Math.min(metrics.length - 1, i + 1));
      else if (event.key === "ArrowUp" || event.key === "k") setActive((i) => Math.max(0, i - 1));
      else if (event.key === "]" && (submitted ? props.nextUnfinishedHref : props.nextHref))
        router.push((submitted ? props.nextUnfinishedHref : props.nextHref)!);
      else if (event.key === "[" && props.previousHref) router.push(props.previousHref);
      else if (metric && event.key === "r") {
        event.preventDefault();
        document.getElementById(`note-${metric.id}`)?.focus();
      } else if (metric) {
        const value = LABEL_VALUES.find((v) => VALUE_TEXT[v].key === event.key);
        if (!value) return;
        choose(metric.id, value);
        setActive((i) => Math.min(metrics.length - 1, i + 1));
      } else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [
    active,
    choose,
    metrics,
    props.nextHref,
    props.nextUnfinishedHref,
    props.previousHref,
    router,
    submit,
    submitted,
  ]);

  return (
    <div className="label-form" data-testid="label-form">
      <p className="muted shortcut-help">
        Keys: <kbd>↑</kbd>/<kbd>↓</kbd> metric · <kbd>v</kbd> violated · <kbd>n</kbd> not violated · <kbd>c</kbd> cannot
        tell · <kbd>r</kbd> rationale · <kbd>[</kbd>/<kbd>]</kbd> previous/next item · <kbd>Ctrl</kbd>+<kbd>Enter</kbd>{" "}
        submit
      </p>
      {metrics.map((metric, i) => {
        const current = labels[metric.id];
        return (
          <fieldset
            key={metric.id}
            ref={(el) => {
              rows.current[i] = el;
            }}
            tabIndex={-1}
            className={`label-row${i === active ? " label-row-active" : ""}`}
            data-testid="label-row"
            data-metric={metric.id}
            data-value={current?.value ?? ""}
            onFocus={() => setActive(i)}
            disabled={submitted}
          >
            <legend>{metric.label}</legend>
            <p className="guideline">{metric.guideline}</p>
            <div className="label-choices" role="radiogroup" aria-label={metric.label}>
              {LABEL_VALUES.map((value) => (
                <label key={value} className={`choice choice-${value}`}>
                  <input
                    type="radio"
                    name={`label-${metric.id}`}
                    value={value}
                    checked={current?.value === value}
                    onChange={() => choose(metric.id, value)}
                  />
                  {VALUE_TEXT[value].label} <kbd>{VALUE_TEXT[value].key}</kbd>
                </label>
              ))}
              <span
                className={`save-state save-${state[metric.id] ?? "idle"}`}
                data-testid="save-state"
                aria-live="polite"
              >
                {state[metric.id] === "saving"
                  ? "saving…"
                  : state[metric.id] === "saved"
                    ? "saved"
                    : state[metric.id] === "error"
                      ? "not saved"
                      : ""}
              </span>
            </div>
            <label className="rationale">
              <span>Rationale</span>
              <textarea
                id={`note-${metric.id}`}
                rows={2}
                value={current?.note ?? ""}
                onChange={(e) => editNote(metric.id, e.target.value)}
                maxLength={5000}
              />
            </label>
          </fieldset>
        );
      })}
      {error ? (
        <p className="notice notice-error" role="alert" data-testid="label-error">
          {error}
        </p>
      ) : null}
      {submitted ? (
        <p className="notice" data-testid="submitted">
          Submitted. Your labels for this item are final.{" "}
          {props.nextUnfinishedHref ? (
            <a href={props.nextUnfinishedHref} data-testid="next-unfinished">
              Next item to label <kbd>]</kbd>
            </a>
          ) : (
            "You have submitted every item."
          )}
        </p>
      ) : (
        <button type="button" onClick={submit} disabled={!complete || pending} data-testid="submit-item">
          {complete
            ? "Submit item"
            : `Label every metric to submit (${metrics.filter((m) => labels[m.id]?.value).length}/${metrics.length})`}
        </button>
      )}
    </div>
  );
}
