import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { listBenchmarks } from "@/db/queries/benchmarks";
import { listJobs } from "@/db/queries/jobs";
import { JobForms } from "@/components/jobs/job-forms";
import { cancelJobAction, enqueueJobAction } from "./actions";
import { JobList } from "@/components/jobs/job-list";
import { AutoRefresh } from "@/components/ui/auto-refresh";
import { SUBTASKS } from "@/lib/benchmark/subtasks";

export default async function JobsPage() {
  await connection();
  const db = getAppDb();
  const jobs = listJobs(db);
  const active = jobs.some((j) => j.status === "queued" || j.status === "running");
  return (
    <section>
      <h1>Jobs</h1>
      <p className="muted">
        Agent runs and evaluations started here are executed by the worker (<code>npm run worker</code>, started by the
        demo) as the same CLIs, with progress and logs below.
      </p>
      <JobForms
        enqueueAction={enqueueJobAction}
        benchmarks={listBenchmarks(db).map((b) => b.id)}
        subtasks={SUBTASKS.map((s) => ({ id: s.id, label: s.label }))}
      />
      <JobList
        cancelAction={cancelJobAction}
        jobs={jobs.map(({ params, ...job }) => ({ ...job, params: JSON.stringify(params) }))}
      />
      {active ? <AutoRefresh intervalMs={2000} /> : null}
    </section>
  );
}
