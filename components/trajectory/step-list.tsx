"use client";
import type { Virtualizer } from "@tanstack/react-virtual";
import type { RunStep } from "@/lib/runs/types";
import { StepRow } from "./step-row";
import styles from "./trajectory.module.css";

export interface StepListProps {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  steps: RunStep[];
  /** What the list shows, as positions in `steps`. */
  visible: number[];
  expanded: ReadonlySet<string>;
  highlighted: string | null;
  /** Position of the current search match, if any. */
  current: number | null;
  copied: string | null;
  query: string;
  onToggle: (stepId: string) => void;
  onCopyLink: (stepId: string) => void;
}

/** The rendered window of the virtualized step list, placed at its offset in the full height. */
export function StepList({
  virtualizer,
  steps,
  visible,
  expanded,
  highlighted,
  current,
  copied,
  ...rest
}: StepListProps) {
  const items = virtualizer.getVirtualItems();
  return (
    <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
      <ol
        className={styles.steps}
        aria-label="Trajectory steps"
        style={{
          position: "absolute",
          top: 0,
          left: 0,
          right: 0,
          transform: `translateY(${items[0]?.start ?? 0}px)`,
        }}
      >
        {items.map((item) => {
          const position = visible[item.index]!;
          const step = steps[position]!;
          return (
            <StepRow
              key={item.key}
              rowRef={virtualizer.measureElement}
              step={step}
              index={item.index}
              setSize={visible.length}
              expanded={expanded.has(step.stepId)}
              highlighted={highlighted === step.stepId}
              current={current === position}
              copied={copied === step.stepId}
              {...rest}
            />
          );
        })}
      </ol>
    </div>
  );
}
