import Link from "next/link";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { listBenchmarks } from "@/db/queries/benchmarks";
import { EXTERNAL_BENCHMARK_SOURCE } from "@/db/queries/run-import";
import { listJobs } from "@/db/queries/jobs";
import { JobForms } from "@/components/jobs/job-forms";
import { cancelJobAction, enqueueJobAction } from "./actions";
import { JobList } from "@/components/jobs/job-list";
import { AutoRefresh } from "@/components/ui/auto-refresh";
import { EmptyState } from "@/components/ui/states";
import { SUBTASKS } from "@/lib/benchmark/subtasks";
import { BUILTIN_FRAMEWORKS } from "@/lib/agents/builtin";
import { AGENT_CLI_NAMES } from "@/lib/agents/external";
import { MITIGATION_LABELS, MITIGATIONS } from "@/lib/codekit/arms";
import { loadEnv } from "@/lib/config/env";
import { availableJudges } from "@/lib/judge/llm/judge-definitions";
import { currentUser, requireReader } from "../session";

/** The judges an evaluation can use: the rule judge, then the LLM judge definitions. */
function judgeChoices(): { id: string; label: string }[] {
  const env = loadEnv();
  const llm = availableJudges({ file: env.STUDIO_JUDGES, geminiModel: env.STUDIO_JUDGE_MODEL });
  return [
    { id: "rule", label: "rule (deterministic)" },
    ...llm.map((j) => ({
      id: j.id,
      label: `${j.id}: ${j.provider} ${j.model}${j.promptVersion ? ` prompts v${j.promptVersion}` : ""}, temperature ${j.temperature}`,
    })),
  ];
}

/**
 * The job queue with progress and logs. An evaluation's log lists violations per metric (of one
 * run, for a narrow job): so the page is the dashboard's, admins and viewers only once a study is
 * active (lib/auth/access.ts); only admins queue and cancel.
 */
export default async function JobsPage() {
  await connection();
  await requireReader("dashboard", "/jobs");
  const db = getAppDb();
  const user = await currentUser();
  const isAdmin = user?.role === "admin";
  const jobs = listJobs(db);
  const active = jobs.some((j) => j.status === "queued" || j.status === "running");
  return (
    <section>
      <h1>Jobs</h1>
      <p className="muted">
        Agent runs and evaluations started here are executed by the worker (<code>npm run worker</code>, started by the
        demo) as the same CLIs, with progress and logs below.
      </p>
      {isAdmin ? (
        <JobForms
          enqueueAction={enqueueJobAction}
          // Agents run on our own benchmarks; an external one (brought by runs made elsewhere) has no repositories.
          benchmarks={listBenchmarks(db)
            .filter((b) => b.source !== EXTERNAL_BENCHMARK_SOURCE)
            .map((b) => b.id)}
          subtasks={SUBTASKS.map((s) => ({ id: s.id, label: s.label }))}
          agents={{ builtin: [...BUILTIN_FRAMEWORKS], clis: [...AGENT_CLI_NAMES] }}
          judges={judgeChoices()}
          mitigations={MITIGATIONS.map((id) => ({ id, label: MITIGATION_LABELS[id] }))}
        />
      ) : (
        <EmptyState
          title={user ? "Only admins can queue jobs" : "Sign in as an admin to queue jobs"}
          testId="jobs-sign-in"
        >
          {user ? (
            <>
              You are signed in as {user.displayName} ({user.role}).{" "}
              <Link href="/login?next=%2Fjobs">Sign in as an admin</Link> to start agent runs and evaluations, or to
              cancel them.
            </>
          ) : (
            <>
              <Link href="/login?next=%2Fjobs" data-testid="jobs-sign-in-link">
                Sign in
              </Link>{" "}
              with an admin account to start agent runs and evaluations, or to cancel them. The jobs below are open to
              everyone until the first annotator account exists, then to admins and viewers only.
            </>
          )}
        </EmptyState>
      )}
      <JobList
        cancelAction={isAdmin ? cancelJobAction : undefined}
        jobs={jobs.map(({ params, ...job }) => ({ ...job, params: JSON.stringify(params) }))}
      />
      {active ? <AutoRefresh intervalMs={2000} /> : null}
    </section>
  );
}
