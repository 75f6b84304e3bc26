import Link from "next/link";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { requireReader } from "@/app/session";
import { resolveDashboardScope } from "@/db/queries/dashboard-scope";
import { overviewView } from "@/db/queries/dashboard-views";
import { armOptions } from "@/db/queries/overview";
import { LazyMetricBarChart } from "@/components/charts/lazy-metric-bar-chart";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { armField, benchmarkField, judgeField } from "@/lib/dashboard/filter-fields";
import { ExportLinks } from "@/components/dashboard/export-links";
import { LazyOverviewTableView, OverviewTableView } from "@/components/tables/overview-table";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { CATALOG_FAMILY_IDS, CATALOG_SUBTASKS, FAMILY_LABELS } from "@/lib/benchmark/subtasks";
import { prepareMetricChart } from "@/lib/dashboard/overview";
import { toQueryString } from "@/lib/dashboard/query-string";
import { OverviewParamsSchema, parseParams, type SearchParams } from "@/lib/dashboard/params";

export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  await requireReader("dashboard", "/overview");
  const parsed = parseParams(OverviewParamsSchema, await searchParams);
  if (!parsed.ok) return <ErrorState title="This overview link has a bad filter" errors={parsed.errors} />;
  const params = parsed.value;
  const db = getAppDb();
  const scope = resolveDashboardScope(db, params);
  if (scope.kind === "error") return <ErrorState title="Nothing to show for this link" errors={scope.errors} />;
  if (scope.kind === "no-runs") {
    return (
      <section>
        <h1>Overview</h1>
        <EmptyState title="No runs yet">
          Run the demo (<code>npm run demo</code>), queue agent runs on the <Link href="/jobs">Jobs</Link> page, or
          import bundles with <code>npm run ingest -- PATH</code>.
        </EmptyState>
      </section>
    );
  }
  const view = scope.judgeId === null ? null : overviewView(db, params, { ...scope, judgeId: scope.judgeId });
  const groups = view?.groups ?? [];
  const tables = view?.tables ?? [];
  const query = {
    benchmark: scope.benchmarkId,
    judge: scope.judgeId ?? undefined,
    split: params.split,
    family: params.family,
    subtask: params.subtask,
    arm: params.arm,
  };
  return (
    <section>
      <h1>Overview</h1>
      <p className="muted">
        Misbehavior rates per task family, framework, model and mitigation arm, as one judge scored them.
      </p>
      <FilterBar
        key={toQueryString(query)}
        action="/overview"
        fields={[
          benchmarkField(scope.benchmarks, scope.benchmarkId),
          {
            name: "split",
            label: "Split",
            value: params.split,
            options: [
              { value: "all", label: "all instances" },
              { value: "eval", label: "evaluation split" },
            ],
          },
          judgeField(scope.judges, scope.judgeId),
          {
            name: "family",
            label: "Family",
            value: params.family ?? "",
            options: [
              { value: "", label: "all families" },
              ...CATALOG_FAMILY_IDS.map((f) => ({ value: f, label: FAMILY_LABELS[f] })),
            ],
          },
          {
            name: "subtask",
            label: "Subtask",
            value: params.subtask ?? "",
            options: [
              { value: "", label: "all subtasks" },
              ...CATALOG_SUBTASKS.filter((s) => !params.family || s.family === params.family).map((s) => ({
                value: s.id,
                label: s.label,
              })),
            ],
          },
          armField(armOptions(db), params.arm),
        ]}
      />
      {scope.judgeId === null ? (
        <EmptyState title="No verdicts on this benchmark yet">
          Score its runs with <code>npm run evaluate</code> or from the <Link href="/jobs">Jobs</Link> page.
        </EmptyState>
      ) : tables.length === 0 ? (
        <EmptyState title="No judged runs match these filters" testId="overview-empty">
          Try another split, family, subtask or arm.
        </EmptyState>
      ) : (
        <>
          <ExportLinks table="overview" query={query} />
          {tables.map((table, i) =>
            i === 0 ? (
              <OverviewTableView key={table.family} table={table} />
            ) : (
              <LazyOverviewTableView key={table.family} table={table} />
            ),
          )}
          <div className="charts">
            <LazyMetricBarChart
              title="Violation rate by framework"
              chart={prepareMetricChart(groups, "framework")}
              fileName="rates-by-framework"
            />
            <LazyMetricBarChart
              title="Violation rate by model"
              chart={prepareMetricChart(groups, "model")}
              fileName="rates-by-model"
            />
          </div>
        </>
      )}
    </section>
  );
}
