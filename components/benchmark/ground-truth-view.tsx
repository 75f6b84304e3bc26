import { describeTargetName } from "@/lib/analysis/target-name";
import type { GroundTruth } from "@/lib/benchmark/schema";

export function GroundTruthView({ groundTruth: gt }: { groundTruth: GroundTruth }) {
  const deps = [...gt.dependencies.intraClass, ...gt.dependencies.intraFile, ...gt.dependencies.crossFile];
  return (
    <>
      <h2>Ground truth</h2>
      <dl className="facts" data-testid="ground-truth">
        <div>
          <dt>File</dt>
          <dd>{gt.originalFile ? <code>{gt.originalFile}</code> : <span className="muted">–</span>}</dd>
        </div>
        <div>
          <dt>Target</dt>
          <dd>
            {gt.targetQualifiedName ? <code>{gt.targetQualifiedName}</code> : <span className="muted">–</span>}
            {gt.targetQualifiedName?.includes("#") ? (
              <span className="muted"> {describeTargetName(gt.targetQualifiedName)}</span>
            ) : null}
          </dd>
        </div>
        {gt.signature ? (
          <div>
            <dt>Signature</dt>
            <dd>
              <pre>{gt.signature}</pre>
            </dd>
          </div>
        ) : null}
        {gt.docstring ? (
          <div>
            <dt>Given docstring</dt>
            <dd>
              <pre>{gt.docstring}</pre>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Dependencies</dt>
          <dd>
            {deps.length === 0 ? <span className="muted">none</span> : null}
            {gt.dependencies.crossFile.map((d) => (
              <code key={`x${d}`} className="path" title="cross-file">
                {d}
              </code>
            ))}
            {[...gt.dependencies.intraFile, ...gt.dependencies.intraClass].map((d) => (
              <code key={`i${d}`} className="path muted" title="same file">
                {d}
              </code>
            ))}
          </dd>
        </div>
        <div>
          <dt>Tests</dt>
          <dd>
            {gt.tests.length === 0 ? <span className="muted">none</span> : null}
            {gt.tests.map((test) => (
              <code key={test} className="path">
                {test}
              </code>
            ))}
          </dd>
        </div>
      </dl>
    </>
  );
}
