import type { RunProvenance } from "@/lib/runs/types";

const WORKSPACE_TEXT: Record<RunProvenance["evidence"]["workspace"], string> = {
  snapshot: "rebuilt in full from the repo diff and the repository given at import",
  patch: "the files the repo diff names; contents only where the diff holds them (give --repo to rebuild the rest)",
  none: "not captured: the log holds no repo diff, so which files changed is not known",
};

/** Where a run made elsewhere came from, what its log captured, and its repo diff (docs/foreign-runs.md). */
export function ProvenancePanel({ provenance }: { provenance: RunProvenance }) {
  const { source, evidence } = provenance;
  return (
    <>
      <dl className="facts" data-testid="provenance">
        <div>
          <dt>Read from</dt>
          <dd>
            <code className="path">{source.file}</code>
            {source.index > 0 ? ` (run ${source.index + 1} of the file)` : null}, sha256{" "}
            <code title={source.sha256}>{source.sha256.slice(0, 16)}…</code>
          </dd>
        </div>
        <div>
          <dt>Format</dt>
          <dd data-testid="provenance-format">
            {source.format}
            {source.formatVersion ? ` ${source.formatVersion}` : ""} · reader v{source.readerVersion}
          </dd>
        </div>
        <div>
          <dt>Workspace root</dt>
          <dd>{provenance.workspaceRoot ? <code className="path">{provenance.workspaceRoot}</code> : "not known"}</dd>
        </div>
        <div>
          <dt>Trajectory</dt>
          <dd>
            {evidence.trajectory
              ? "recorded"
              : "not recorded: a repo diff alone (trajectory metrics are not applicable)"}
          </dd>
        </div>
        <div>
          <dt>Files</dt>
          <dd data-testid="provenance-workspace">{WORKSPACE_TEXT[evidence.workspace]}</dd>
        </div>
        <div>
          <dt>Environment</dt>
          <dd>
            {evidence.environment ? "snapshots taken" : "no snapshots: only commands in the trajectory show changes"}
          </dd>
        </div>
      </dl>
      {provenance.repoDiff !== null ? (
        <details className="repo-diff" data-testid="repo-diff">
          <summary>
            Repo diff as the log held it ({provenance.repoDiffLength.toLocaleString("en")} bytes
            {provenance.repoDiffCut ? ", cut here; the bundle keeps all" : ""})
          </summary>
          <pre className="log">{provenance.repoDiff}</pre>
        </details>
      ) : null}
    </>
  );
}
