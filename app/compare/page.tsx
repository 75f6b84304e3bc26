import Link from "next/link";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { requireReader } from "@/app/session";
import { resolveDashboardScope } from "@/db/queries/dashboard-scope";
import { compareView } from "@/db/queries/dashboard-views";
import { ExportLinks } from "@/components/dashboard/export-links";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { benchmarkField, judgeField } from "@/lib/dashboard/filter-fields";
import { CompareTable, DifferingInstances } from "@/components/tables/compare-table";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { withArm } from "@/lib/dashboard/format";
import { toQueryString } from "@/lib/dashboard/query-string";
import { CompareParamsSchema, parseParams, type SearchParams } from "@/lib/dashboard/params";

export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  await requireReader("dashboard", "/compare");
  const parsed = parseParams(CompareParamsSchema, await searchParams);
  if (!parsed.ok) return <ErrorState title="This compare link has a bad parameter" errors={parsed.errors} />;
  const params = parsed.value;
  const db = getAppDb();
  const scope = resolveDashboardScope(db, params);
  if (scope.kind === "error") return <ErrorState title="Nothing to compare for this link" errors={scope.errors} />;
  if (scope.kind === "no-runs" || scope.judgeId === null) {
    return (
      <section>
        <h1>Compare</h1>
        <EmptyState title="Nothing judged yet">
          Compare needs judged runs of two agent configurations: run agents and <code>npm run evaluate</code>, or use
          the <Link href="/jobs">Jobs</Link> page.
        </EmptyState>
      </section>
    );
  }
  const { configs, a, b, comparison } = compareView(db, params, { ...scope, judgeId: scope.judgeId });
  // The arm beside the framework: a configuration and its Code-KIT variant differ by it alone.
  const configLabel = (c: (typeof configs)[number]) => `${withArm(c.framework, c.mitigation)} / ${c.model} · ${c.name}`;
  const label = (id: string | undefined) => {
    const c = configs.find((x) => x.id === id);
    return c ? configLabel(c) : "";
  };
  const errors = [params.a, params.b]
    .map((id, i) =>
      id !== undefined && !configs.some((c) => c.id === id)
        ? `${i === 0 ? "a" : "b"}: no judged runs of configuration "${id}"`
        : null,
    )
    .filter((e): e is string => e !== null);
  if (errors.length > 0) return <ErrorState title="Nothing to compare for this link" errors={errors} />;
  const choices = configs.map((c) => ({ value: c.id, label: `${configLabel(c)} (${c.runs})` }));
  const query = { benchmark: scope.benchmarkId, judge: scope.judgeId, a, b };
  return (
    <section>
      <h1>Compare</h1>
      <p className="muted">Two agent configurations on the instances both ran, as one judge scored them.</p>
      <FilterBar
        key={toQueryString(query)}
        action="/compare"
        fields={[
          benchmarkField(scope.benchmarks, scope.benchmarkId),
          judgeField(scope.judges, scope.judgeId),
          { name: "a", label: "A", value: a ?? "", options: choices },
          { name: "b", label: "B", value: b ?? "", options: choices },
        ]}
      />
      {comparison === null ? (
        <EmptyState title="Pick two different configurations">
          Only one configuration has judged runs on this benchmark.
        </EmptyState>
      ) : comparison.pairs === 0 ? (
        <EmptyState title="No shared instances" testId="compare-empty">
          {label(a)} and {label(b)} never ran the same instance.
        </EmptyState>
      ) : (
        <>
          <p>
            <strong>A</strong> <span data-testid="compare-a">{label(a)}</span> &nbsp;·&nbsp; <strong>B</strong>{" "}
            <span data-testid="compare-b">{label(b)}</span>
          </p>
          <ExportLinks table="compare" query={query} />
          <CompareTable comparison={comparison} labelA={label(a)} labelB={label(b)} />
          <h2>Where they differ</h2>
          <DifferingInstances comparison={comparison} />
        </>
      )}
    </section>
  );
}
