import type { TargetComparison } from "@/lib/runs/target-function";
import { DiffView } from "./diff-view";
import styles from "./diff.module.css";

const SOURCE: Record<TargetComparison["source"], string> = {
  answer: "the agent's final answer",
  file: "the target file after the run",
  unchanged_file: "the target file, which the run left as it was set up",
};

/** Ground truth (left) vs the agent's version (right) of the target function. */
export function TargetComparisonView({ target }: { target: TargetComparison }) {
  return (
    <div data-testid="target-comparison">
      <p className="muted">
        <code>{target.qualifiedName}</code> in <code>{target.file}</code>: the ground truth (signature, given docstring,
        original body) on the left, the agent&apos;s version from {SOURCE[target.source]} on the right.
      </p>
      {target.agent === null ? (
        <>
          <div className={styles.note} data-testid="target-problem">
            No version of the agent to compare: {target.problem ?? "unknown reason"}. The ground truth:
          </div>
          <pre className={styles.codeBlock}>{target.groundTruth}</pre>
        </>
      ) : (
        <DiffView
          original={target.groundTruth}
          modified={target.agent}
          language="python"
          sideBySide
          label={`${target.qualifiedName}: ground truth vs agent`}
        />
      )}
    </div>
  );
}
