import Link from "next/link";
import { endedByLostWorker, leaseSummary } from "@/lib/jobs/lease";
import { ablationLinkOf } from "@/lib/jobs/schema";

export interface JobView {
  id: number;
  kind: string;
  params: string;
  status: string;
  progressDone: number;
  progressTotal: number | null;
  log: string;
  error: string | null;
  workerPid: number | null;
  heartbeatAt: string | null;
  leaseExpiresAt: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** `cancelAction` absent: the viewer may not cancel (not an admin), so no Cancel buttons. */
export function JobList({ jobs, cancelAction }: { jobs: JobView[]; cancelAction?: (form: FormData) => Promise<void> }) {
  if (jobs.length === 0) return <p className="muted">No jobs yet.</p>;
  // Rendered per request (the page awaits connection()): "now" is the moment of this answer.
  const now = new Date();
  return (
    <ol className="jobs" data-testid="job-list">
      {jobs.map((job) => {
        const percent = job.progressTotal ? Math.round((job.progressDone / job.progressTotal) * 100) : null;
        const lease = job.status === "running" ? leaseSummary(job, now) : null;
        return (
          <li key={job.id} className="panel" data-testid="job" data-job-id={job.id} data-status={job.status}>
            <div className="job-head">
              <strong>
                #{job.id} {job.kind}
              </strong>{" "}
              <span className={`status status-${job.status}`} data-testid="job-status">
                {job.status}
              </span>{" "}
              {endedByLostWorker(job.error) ? (
                <span className="status status-failed" data-testid="job-worker-lost">
                  worker lost
                </span>
              ) : null}{" "}
              <span className="muted">{job.params}</span>
              {cancelAction && (job.status === "queued" || job.status === "running") ? (
                <form action={cancelAction} className="inline">
                  <input type="hidden" name="id" value={job.id} />
                  <button type="submit" data-testid="job-cancel">
                    Cancel
                  </button>
                </form>
              ) : null}
            </div>
            {job.progressTotal !== null ? (
              <div className="progress" title={`${job.progressDone}/${job.progressTotal}`}>
                <div className="progress-bar" style={{ width: `${percent}%` }} />
                <span data-testid="job-progress">
                  {job.progressDone}/{job.progressTotal}
                </span>
              </div>
            ) : null}
            {lease ? (
              <p className={lease.expired ? "error" : "muted"} data-testid="job-lease" data-expired={lease.expired}>
                {lease.text}
              </p>
            ) : null}
            {job.error ? <p className="error">{job.error}</p> : null}
            {job.kind === "ablation" && job.status === "succeeded" ? <AblationLink log={job.log} /> : null}
            <details>
              <summary>log</summary>
              <pre className="log">{job.log.slice(-8000)}</pre>
            </details>
          </li>
        );
      })}
    </ol>
  );
}

/** The finished ablation's table, where its log says it is. */
function AblationLink({ log }: { log: string }) {
  const href = ablationLinkOf(log);
  return href ? (
    <p>
      <Link href={href} data-testid="job-ablation-link">
        The ablation table
      </Link>
    </p>
  ) : null;
}
