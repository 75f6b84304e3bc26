import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { requireReader } from "@/app/session";
import { getInstance } from "@/db/queries/benchmarks";
import { ContractView } from "@/components/benchmark/contract-view";
import { GroundTruthView } from "@/components/benchmark/ground-truth-view";
import { LazyCodeViewer } from "@/components/code/lazy-code-viewer";
import { parseTargetName } from "@/lib/analysis/target-name";
import { findLineSpan } from "@/lib/benchmark/spans";
import { safeDecode } from "@/lib/util/decode";

export default async function InstancePage({ params }: { params: Promise<{ id: string[] }> }) {
  await connection();
  const rawParts = (await params).id;
  // The ground truth: admins and viewers only once a study is active (lib/auth/access.ts).
  await requireReader("dashboard", `/instances/${rawParts.join("/")}`);
  const parts = rawParts.map(safeDecode);
  const detail = parts.includes(null) ? null : getInstance(getAppDb(), parts.join("/"));
  if (!detail) notFound();
  const { instance, workspaceFile, originalFile } = detail;
  const gt = instance.groundTruth;
  // The target as the agent finds it: its signature and the docstring it was given.
  const workspaceSpan = workspaceFile
    ? findLineSpan(
        workspaceFile.content,
        gt.signature && gt.docstring ? `${gt.signature}\n${gt.docstring}` : gt.signature,
      )
    : null;
  // `name#n`: the n-th definition of the name in the original file.
  const { occurrence } = parseTargetName(gt.targetQualifiedName ?? "");
  const originalSpan = originalFile ? findLineSpan(originalFile.content, gt.signature, occurrence) : null;
  const originalBodySpan = originalFile ? findLineSpan(originalFile.content, gt.body, occurrence) : null;
  return (
    <section>
      <p className="muted">
        <Link href={`/benchmarks/${encodeURIComponent(instance.benchmark)}`}>{instance.benchmark}</Link> ·{" "}
        {instance.subtask} · {detail.projectPath ?? "no repository"} {detail.inEvalSplit ? "· evaluation split" : ""}
      </p>
      <h1 data-testid="instance-id">{instance.id}</h1>
      <h2>Prompt</h2>
      <blockquote className="prompt" data-testid="instance-prompt">
        {instance.prompt}
      </blockquote>
      <p className="muted">Paraphrase #{instance.paraphraseIndex ?? "–"}</p>
      <ContractView contract={instance.contract} />
      <GroundTruthView groundTruth={gt} />
      {workspaceFile ? (
        <>
          <h2>
            <code>{workspaceFile.path}</code> as the agent finds it
          </h2>
          <LazyCodeViewer
            content={workspaceFile.content}
            path={workspaceFile.path}
            highlights={workspaceSpan ? [{ ...workspaceSpan, label: `target: ${gt.targetQualifiedName ?? ""}` }] : []}
          />
        </>
      ) : null}
      {originalFile && originalFile.content !== workspaceFile?.content ? (
        <>
          <h2>
            <code>{originalFile.path}</code> in the original repository
          </h2>
          <LazyCodeViewer
            content={originalFile.content}
            path={`original/${originalFile.path}`}
            highlights={[
              ...(originalSpan ? [{ ...originalSpan, label: "signature" }] : []),
              ...(originalBodySpan ? [{ ...originalBodySpan, label: "ground-truth body" }] : []),
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
