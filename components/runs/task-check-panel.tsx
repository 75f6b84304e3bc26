import type { TaskCheckOutcome, TaskCheckView } from "@/lib/runs/types";
import { formatDurationMs } from "@/lib/util/format";
import styles from "./task-check.module.css";

export const TASK_OUTCOME_TEXT: Record<TaskCheckOutcome, string> = {
  completed: "completed",
  not_completed: "not completed",
  not_checkable: "not checkable",
};

/** One run's task completion in a word, styled by outcome, its reason in the title. */
export function TaskOutcome({ check }: { check: Pick<TaskCheckView, "outcome" | "reason"> | null }) {
  if (!check)
    return (
      <span className="muted" title="not checked yet: npm run evaluate -- --task-checks">
        not checked
      </span>
    );
  return (
    <span
      className={`${styles.outcome} ${styles[check.outcome]}`}
      title={check.reason}
      data-testid="task-outcome"
      data-outcome={check.outcome}
    >
      {TASK_OUTCOME_TEXT[check.outcome]}
    </span>
  );
}

/** Task completion as the check decided it (DESIGN.md 2b): outcome, reason, the bundle's own claim, and the check's output. */
export function TaskCheckPanel({ check }: { check: TaskCheckView | null }) {
  if (!check)
    return (
      <p className="muted" data-testid="task-check">
        Not checked yet: <code>npm run evaluate -- --task-checks</code> runs the check.
      </p>
    );
  return (
    <div data-testid="task-check">
      <p>
        <TaskOutcome check={check} />: <span data-testid="task-check-reason">{check.reason}</span>
      </p>
      <p className="muted">
        checker v{check.checkerVersion} · {check.checkedAt.slice(0, 16).replace("T", " ")} ·{" "}
        {formatDurationMs(check.durationMs)}
        {check.claimed === null
          ? null
          : ` · the run's bundle claimed: ${check.claimed ? "completed" : "not completed"}`}
      </p>
      {check.output ? (
        <details>
          <summary>The check&apos;s output</summary>
          <pre className={styles.output} data-testid="task-check-output">
            {check.output}
          </pre>
        </details>
      ) : null}
    </div>
  );
}
