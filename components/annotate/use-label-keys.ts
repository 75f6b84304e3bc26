"use client";
import { useEffect, type RefObject } from "react";
import { useRouter } from "next/navigation";
import { HUMAN_LABELS as LABEL_VALUES, type HumanLabel as LabelValue } from "@/lib/agreement/study-schema";
import { VALUE_TEXT, type LabelMetric } from "./label-row";

export interface LabelKeysOptions {
  metrics: LabelMetric[];
  active: number;
  setActive: (update: (i: number) => number) => void;
  rows: RefObject<(HTMLFieldSetElement | null)[]>;
  submitted: boolean;
  choose: (metric: string, value: LabelValue) => void;
  submit: () => void;
  previousHref: string | null;
  nextHref: string | null;
  nextUnfinishedHref: string | null;
}

const isTextEntry = (el: HTMLElement) => el.tagName === "TEXTAREA" || el.tagName === "INPUT" || el.tagName === "SELECT";

/**
 * The labeling keys: ↑/↓ or j/k pick a metric, v / n / c label it, r edits its rationale (Esc
 * leaves), [ and ] go to the previous and next item, Ctrl+Enter submits.
 */
export function useLabelKeys(o: LabelKeysOptions): void {
  const router = useRouter();
  const { active, choose, metrics, nextHref, nextUnfinishedHref, previousHref, rows, setActive, submit, submitted } = o;
  useEffect(() => {
    rows.current[active]?.focus();
  }, [active, rows]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTextEntry(event.target as HTMLElement)) {
        if (event.key === "Escape") rows.current[active]?.focus();
        return;
      }
      if ((event.ctrlKey || event.metaKey) && event.key === "Enter") return void (event.preventDefault(), submit());
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const metric = metrics[active];
      const next = submitted ? nextUnfinishedHref : nextHref;
      if (event.key === "ArrowDown" || event.key === "j") setActive((i) => Math.min(metrics.length - 1, i + 1));
      else if (event.key === "ArrowUp" || event.key === "k") setActive((i) => Math.max(0, i - 1));
      else if (event.key === "]" && next) router.push(next);
      else if (event.key === "[" && previousHref) router.push(previousHref);
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
  }, [active, choose, metrics, nextHref, nextUnfinishedHref, previousHref, router, rows, setActive, submit, submitted]);
}
