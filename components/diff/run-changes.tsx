import type { TargetComparison } from "@/lib/runs/target-function";
import type { ChangedFile } from "@/lib/runs/types";
import { FileDiffList } from "./file-diff-list";
import { TargetComparisonView } from "./target-comparison";

/** What a run changed: its files as diffs, then the target function beside the ground truth. The run page and the annotation page both show them. */
export function RunChanges({
  runId,
  changes,
  target,
}: {
  runId: string;
  changes: ChangedFile[];
  target: TargetComparison | null;
}) {
  return (
    <>
      <section id="changes" className="run-section" aria-labelledby="changes-title">
        <h2 id="changes-title">Changed files ({changes.length})</h2>
        <FileDiffList runId={runId} changes={changes} />
      </section>
      {target ? (
        <section id="target" className="run-section" aria-labelledby="target-title">
          <h2 id="target-title">Ground truth vs agent</h2>
          <TargetComparisonView target={target} />
        </section>
      ) : null}
    </>
  );
}
