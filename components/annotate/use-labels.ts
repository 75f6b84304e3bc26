"use client";
import { useCallback, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { HumanLabel as LabelValue } from "@/lib/agreement/study-schema";
import type { LabelFormProps } from "./label-form";
import type { SaveState } from "./label-row";

/** Rationales are saved after this pause in typing. */
const NOTE_DELAY_MS = 600;

/**
 * One item's labels as the annotator edits them: each choice saved at once, each rationale after
 * a pause, and the submit that first flushes what is still waiting.
 */
export function useLabels(props: LabelFormProps) {
  const { setId, runId, metrics, submitted } = props;
  const router = useRouter();
  const [labels, setLabels] = useState(props.initial);
  const [state, setState] = useState<Record<string, SaveState>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const noteTimers = useRef<Record<string, ReturnType<typeof setTimeout>>>({});

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
      }, NOTE_DELAY_MS);
  };

  const labelled = metrics.filter((m) => labels[m.id]?.value).length;
  const complete = labelled === metrics.length;
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

  return { labels, state, error, pending, labelled, complete, choose, editNote, submit };
}
