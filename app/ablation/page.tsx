import Link from "next/link";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { requireReader } from "@/app/session";
import { ablationView } from "@/db/queries/ablation";
import { resolveDashboardScope } from "@/db/queries/dashboard-scope";
import { ExportLinks } from "@/components/dashboard/export-links";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { AblationTable, PublishedReference, ToolUseTable } from "@/components/tables/ablation-table";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { MITIGATION_LABELS } from "@/lib/codekit/arms";
import { benchmarkField, judgeField } from "@/lib/dashboard/filter-fields";
import { toQueryString } from "@/lib/dashboard/query-string";
import { AblationParamsSchema, parseParams, type SearchParams } from "@/lib/dashboard/params";

export default async function AblationPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  await requireReader("dashboard", "/ablation");
  const parsed = parseParams(AblationParamsSchema, await searchParams);
  if (!parsed.ok) return <ErrorState title="This ablation link has a bad parameter" errors={parsed.errors} />;
  const params = parsed.value;
  const db = getAppDb();
  const scope = resolveDashboardScope(db, params);
  if (scope.kind === "error") return <ErrorState title="No ablation for this link" errors={scope.errors} />;
  if (scope.kind === "no-runs" || scope.judgeId === null) return <NoAblation />;
  const { groups, group, table } = ablationView(db, {
    benchmarkId: scope.benchmarkId,
    judgeId: scope.judgeId,
    baseId: params.config,
  });
  if (params.config !== undefined && !group)
    return (
      <ErrorState
        title="No ablation for this link"
        errors={[`config: no configuration "${params.config}" with judged runs under two arms or more`]}
      />
    );
  const label = (g: (typeof groups)[number]) => `${g.framework} / ${g.model} · ${g.name}`;
  const query = { benchmark: scope.benchmarkId, judge: scope.judgeId, config: group?.baseId };
  return (
    <section>
      <h1>Ablation</h1>
      <p className="muted">
        One agent configuration under each Code-KIT arm on the same instances, as one judge scored them.
      </p>
      <FilterBar
        key={toQueryString(query)}
        action="/ablation"
        fields={[
          benchmarkField(scope.benchmarks, scope.benchmarkId),
          judgeField(scope.judges, scope.judgeId),
          {
            name: "config",
            label: "Configuration",
            value: group?.baseId ?? "",
            options: groups.map((g) => ({ value: g.baseId, label: `${label(g)} (${g.arms.length} arms)` })),
          },
        ]}
      />
      {!group || !table ? (
        <NoAblation inline />
      ) : table.instances === 0 ? (
        <EmptyState title="No shared instances" testId="ablation-empty">
          The arms of {label(group)} ({group.arms.map((a) => a.arm).join(", ")}) never ran the same instance.
        </EmptyState>
      ) : (
        <>
          <p>
            <strong>{label(group)}</strong>: {group.arms.map((a) => MITIGATION_LABELS[a.arm]).join(" · ")}
          </p>
          {table.scripted ? (
            <p className="notice" role="status" data-testid="ablation-scripted">
              These runs are scripted: the scripted mock model decides these effects; they say nothing about a real
              model.
            </p>
          ) : null}
          <ExportLinks table="ablation" query={query} />
          <AblationTable table={table} />
          <h2>Published reference</h2>
          <PublishedReference table={table} label={label(group)} />
          <h2>Tools offered and used</h2>
          <ToolUseTable table={table} />
        </>
      )}
    </section>
  );
}

function NoAblation({ inline = false }: { inline?: boolean }) {
  const state = (
    <EmptyState title="No ablation yet" testId="ablation-none">
      An ablation needs one agent configuration judged under two arms or more: run{" "}
      <code>npm run ablation -- --benchmark sample --agent file-tools --mock --per-subtask 1</code> (docs/ablation.md),
      or see the <Link href="/compare">Compare</Link> page for any two configurations.
    </EmptyState>
  );
  return inline ? (
    state
  ) : (
    <section>
      <h1>Ablation</h1>
      {state}
    </section>
  );
}
