"use client";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { useRouter } from "next/navigation";
import { HUMAN_LABELS as LABEL_VALUES, type HumanLabel as LabelValue } from "@/lib/agreement/study-schema";
import { VALUE_TEXT, type LabelMetric } from "./label-row";

export interface LabelKeysOptions {
  metrics: LabelMetric[];
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
export function useLabelKeys(o: LabelKeysOptions): { active: number; rowFocused: (row: number) => void } {
  const router = useRouter();
  const { choose, metrics, nextHref, nextUnfinishedHref, previousHref, rows, submit, submitted } = o;
  // Keys can arrive faster than React renders (a busy machine, a fast typist), so the active row
  // lives in a ref that the key handler reads and moves at once; the state only redraws it. Two
  // quick presses thus label two rows, never the same row twice.
  const activeRow = useRef(0);
  const [active, setActive] = useState(0);
  const rowFocused = useCallback((row: number) => {
    activeRow.current = row;
    setActive(row);
  }, []);
  useEffect(() => {
    rows.current[activeRow.current]?.focus();
  }, [rows]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTextEntry(event.target as HTMLElement)) {
        if (event.key === "Escape") rows.current[activeRow.current]?.focus();
        return;
      }
      if ((event.ctrlKey || event.metaKey) && event.key === "Enter") return void (event.preventDefault(), submit());
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const current = activeRow.current;
      const moveTo = (row: number) => {
        rowFocused(row);
        rows.current[row]?.focus();
      };
      const metric = metrics[current];
      const next = submitted ? nextUnfinishedHref : nextHref;
      if (event.key === "ArrowDown" || event.key === "j") moveTo(Math.min(metrics.length - 1, current + 1));
      else if (event.key === "ArrowUp" || event.key === "k") moveTo(Math.max(0, current - 1));
      else if (event.key === "]" && next) router.push(next);
      else if (event.key === "[" && previousHref) router.push(previousHref);
      else if (metric && event.key === "r") {
        event.preventDefault();
        document.getElementById(`note-${metric.id}`)?.focus();
      } else if (metric) {
        const value = LABEL_VALUES.find((v) => VALUE_TEXT[v].key === event.key);
        if (!value) return;
        choose(metric.id, value);
        moveTo(Math.min(metrics.length - 1, current + 1));
      } else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [choose, metrics, nextHref, nextUnfinishedHref, previousHref, router, rowFocused, rows, submit, submitted]);
  return { active, rowFocused };
}
