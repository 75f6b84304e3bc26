import type { ReactNode } from "react";
import type { RunStep } from "@/lib/runs/types";
import styles from "./steps.module.css";

/** What every step view receives: the step and the search query to highlight in it. */
export interface StepViewProps {
  step: RunStep;
  query: string;
}

/** One labelled part of an opened step (its text, tool, command, path ...). */
export function StepField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <div className={styles.label}>{label}</div>
      {children}
    </div>
  );
}
