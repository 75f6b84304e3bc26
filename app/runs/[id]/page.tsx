import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { canRead, requireReader } from "@/app/session";
import { getCaseStudy } from "@/db/queries/case-studies";
import { getRunDetail } from "@/db/queries/run-detail";
import { ContractView } from "@/components/benchmark/contract-view";
import { CaseStudyPanel } from "@/components/case-studies/case-study-panel";
import { RunChanges } from "@/components/diff/run-changes";
import { MitigationPanel } from "@/components/runs/mitigation-panel";
import { ProvenancePanel } from "@/components/runs/provenance-panel";
import { TaskCheckPanel, TaskOutcome } from "@/components/runs/task-check-panel";
import { VerdictPanel } from "@/components/runs/verdict-panel";
import { TrajectoryViewer } from "@/components/trajectory/trajectory-viewer";
import { withArm } from "@/lib/dashboard/format";
import { safeDecode } from "@/lib/util/decode";
import { formatCost, formatDurationMs, formatTokens } from "@/lib/util/format";
import { removeCaseStudyAction, saveCaseStudyAction } from "./actions";

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const rawId = (await params).id;
  await requireReader("dashboard", `/runs/${rawId}`);
  const id = safeDecode(rawId);
  const run = id === null ? null : await getRunDetail(getAppDb(), id);
  if (!run) notFound();
  // The case-study section is admin-only once a study is active (viewers read the run, not the notes).
  const showCaseStudy = await canRead("case-studies");
  const caseStudy = showCaseStudy ? getCaseStudy(getAppDb(), run.id) : null;
  const flagged = run.steps.filter((s) => s.marks.some((m) => m.severity === "violation")).length;
  const sections = [
    { id: "task", label: "Task" },
    { id: "task-completion", label: "Task completion" },
    ...(run.mitigation ? [{ id: "mitigation", label: "Mitigation" }] : []),
    ...(run.provenance ? [{ id: "provenance", label: "Made elsewhere" }] : []),
    { id: "verdicts", label: `Verdicts (${run.verdicts.length})` },
    ...(showCaseStudy ? [{ id: "case-study", label: caseStudy ? "Case study ✓" : "Case study" }] : []),
    { id: "trajectory", label: `Trajectory (${run.steps.length.toLocaleString("en")})` },
    { id: "changes", label: `Changed files (${run.changes.length})` },
    ...(run.target ? [{ id: "target", label: "Ground truth vs agent" }] : []),
  ];
  return (
    <article className="run-detail">
      <p className="muted">
        <Link href="/runs">Runs</Link> · {withArm(run.framework, run.arm)} / {run.model} · {run.subtaskId}
        {run.scripted ? <span className="badge">scripted</span> : null}
      </p>
      <h1 data-testid="run-id">{run.id}</h1>
      <p className="muted">
        <span className={`status status-${run.status}`}>{run.status}</span> ({run.exitReason}) ·{" "}
        {run.stepCount.toLocaleString("en")} steps · {formatTokens(run.inputTokens + run.outputTokens)} tokens ·{" "}
        {formatCost(run.costUsd)} · {formatDurationMs(run.durationMs)} · task <TaskOutcome check={run.taskCheck} /> ·
        instance{" "}
        <Link href={`/instances/${run.instanceId.split("/").map(encodeURIComponent).join("/")}`}>{run.instanceId}</Link>
      </p>
      {run.error ? (
        <p className="notice notice-error" data-testid="run-error">
          The run ended with an error: {run.error}
        </p>
      ) : null}
      <nav className="run-nav" aria-label="Sections of this run">
        {sections.map((s) => (
          <a key={s.id} href={`#${s.id}`}>
            {s.label}
          </a>
        ))}
      </nav>

      <section id="task" className="run-section" aria-labelledby="task-title">
        <h2 id="task-title">Task</h2>
        <div className="task-grid">
          <blockquote className="prompt" data-testid="run-prompt">
            {run.prompt}
          </blockquote>
          <div>
            <ContractView contract={run.contract} />
          </div>
        </div>
      </section>

      <section id="task-completion" className="run-section" aria-labelledby="task-completion-title">
        <h2 id="task-completion-title">Task completion</h2>
        <TaskCheckPanel check={run.taskCheck} />
      </section>

      {run.mitigation ? (
        <section id="mitigation" className="run-section" aria-labelledby="mitigation-title">
          <h2 id="mitigation-title">Mitigation</h2>
          <MitigationPanel plan={run.mitigation} guard={run.guard} />
        </section>
      ) : null}

      {run.provenance ? (
        <section id="provenance" className="run-section" aria-labelledby="provenance-title">
          <h2 id="provenance-title">Made elsewhere</h2>
          <ProvenancePanel provenance={run.provenance} />
        </section>
      ) : null}

      <section id="verdicts" className="run-section" aria-labelledby="verdicts-title">
        <h2 id="verdicts-title">Verdicts</h2>
        <VerdictPanel verdicts={run.verdicts} changedPaths={run.changes.map((c) => c.path)} />
      </section>

      {showCaseStudy ? (
        <section id="case-study" className="run-section" aria-labelledby="case-study-title">
          <h2 id="case-study-title">Case study</h2>
          <CaseStudyPanel
            key={run.id}
            runId={run.id}
            caseStudy={caseStudy}
            saveAction={saveCaseStudyAction}
            removeAction={removeCaseStudyAction}
          />
        </section>
      ) : null}

      <section id="trajectory" className="run-section" aria-labelledby="trajectory-title">
        <h2 id="trajectory-title">
          Trajectory <span className="muted">· {run.steps.length.toLocaleString("en")} steps</span>
          {flagged > 0 ? (
            <span className="mark mark-violation" data-testid="flagged-count">
              {flagged} step{flagged === 1 ? "" : "s"} outside the contract
            </span>
          ) : null}
        </h2>
        <TrajectoryViewer steps={run.steps} />
      </section>

      <RunChanges runId={run.id} changes={run.changes} target={run.target} />
    </article>
  );
}
