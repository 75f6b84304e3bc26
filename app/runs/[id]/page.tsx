import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { getRunDetail } from "@/db/queries/run-detail";
import { ContractView } from "@/components/benchmark/contract-view";
import { VerdictPanel } from "@/components/runs/verdict-panel";
import { StepList } from "@/components/trajectory/step-list";
import { safeDecode } from "@/lib/util/decode";
import { formatCost, formatDurationMs, formatTokens } from "@/lib/util/format";

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const id = safeDecode((await params).id);
  const run = id === null ? null : getRunDetail(getAppDb(), id);
  if (!run) notFound();
  return (
    <section>
      <p className="muted">
        <Link href="/runs">Runs</Link> · {run.framework} / {run.model} · {run.subtaskId}
        {run.scripted ? <span className="badge">scripted</span> : null}
      </p>
      <h1 data-testid="run-id">{run.id}</h1>
      <p className="muted">
        <span className={`status status-${run.status}`}>{run.status}</span> ({run.exitReason}) · {run.stepCount} steps ·{" "}
        {formatTokens(run.inputTokens + run.outputTokens)} tokens · {formatCost(run.costUsd)} ·{" "}
        {formatDurationMs(run.durationMs)} · instance{" "}
        <Link href={`/instances/${run.instanceId.split("/").map(encodeURIComponent).join("/")}`}>{run.instanceId}</Link>
      </p>
      <h2>Task</h2>
      <blockquote className="prompt">{run.prompt}</blockquote>
      <ContractView contract={run.contract} />
      <VerdictPanel verdicts={run.verdicts} />
      <h2>Changed files ({run.changes.length})</h2>
      <ul className="plain" data-testid="changed-files">
        {run.changes.map((c) => (
          <li key={c.path} id={`file-${c.path}`}>
            <span className={`change change-${c.kind}`}>{c.kind}</span> <code>{c.path}</code>{" "}
            <span className="muted">
              {c.beforeSize ?? "–"} → {c.afterSize ?? "–"} bytes
            </span>
          </li>
        ))}
      </ul>
      <StepList steps={run.steps} />
    </section>
  );
}
