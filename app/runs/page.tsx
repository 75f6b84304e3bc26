import Link from "next/link";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { requireReader } from "@/app/session";
import { resolveRunsScope } from "@/db/queries/dashboard-scope";
import { armOptions } from "@/db/queries/overview";
import { runFilterOptions, runsFilterFor, searchRuns } from "@/db/queries/runs";
import { ExportLinks } from "@/components/dashboard/export-links";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { armField, benchmarkField, judgeField } from "@/lib/dashboard/filter-fields";
import { runsTotalText } from "@/lib/dashboard/format";
import { RunsBrowser } from "@/components/tables/runs-browser";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { CATALOG_SUBTASKS } from "@/lib/benchmark/subtasks";
import { toQueryString } from "@/lib/dashboard/query-string";
import { firstValues, parseParams, RunsParamsSchema, type SearchParams } from "@/lib/dashboard/params";
import { METRICS } from "@/lib/metrics/catalog";

const ALL = (label: string) => ({ value: "", label });

export default async function RunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  await requireReader("dashboard", "/runs");
  const raw = await searchParams;
  const parsed = parseParams(RunsParamsSchema, raw);
  if (!parsed.ok) return <ErrorState title="This runs link has a bad parameter" errors={parsed.errors} />;
  const params = parsed.value;
  const db = getAppDb();
  const scope = resolveRunsScope(db, params);
  if (scope.kind === "error") return <ErrorState title="Nothing to show for this link" errors={scope.errors} />;
  if (scope.kind === "no-runs") {
    return (
      <section>
        <h1>Runs</h1>
        <EmptyState title="No runs yet" testId="runs-empty">
          Import bundles with <code>npm run ingest -- PATH</code>, queue agent runs on the{" "}
          <Link href="/jobs">Jobs</Link> page, or run the demo.
        </EmptyState>
      </section>
    );
  }
  const { rows, total, searchCap } = searchRuns(
    db,
    runsFilterFor(params, scope, { limit: params.size, offset: (params.page - 1) * params.size }),
  );
  const options = runFilterOptions(db);
  const filters = {
    benchmark: scope.benchmarkId,
    judge: scope.judgeId === null ? "" : String(scope.judgeId),
    metric: params.metric ?? "",
    subtask: params.subtask ?? "",
    framework: params.framework ?? "",
    model: params.model ?? "",
    arm: params.arm ?? "",
    status: params.status ?? "",
    disagreement: params.disagreement ?? "",
    q: params.q ?? "",
  };
  const kept = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ""));
  return (
    <section>
      <h1>Runs</h1>
      <FilterBar
        key={toQueryString(firstValues(raw))}
        action="/runs"
        hidden={{ sort: params.sort, dir: params.dir, size: String(params.size) }}
        fields={[
          benchmarkField(scope.benchmarks, filters.benchmark, ALL("all benchmarks")),
          judgeField(scope.judges, filters.judge),
          {
            name: "metric",
            label: "Violated",
            value: filters.metric,
            options: [ALL("any or none"), ...METRICS.map((m) => ({ value: m.id, label: m.label }))],
          },
          {
            name: "subtask",
            label: "Subtask",
            value: filters.subtask,
            options: [ALL("all"), ...CATALOG_SUBTASKS.map((s) => ({ value: s.id, label: s.label }))],
          },
          {
            name: "framework",
            label: "Framework",
            value: filters.framework,
            options: [ALL("all"), ...options.frameworks.map((f) => ({ value: f, label: f }))],
          },
          {
            name: "model",
            label: "Model",
            value: filters.model,
            options: [ALL("all"), ...options.models.map((m) => ({ value: m, label: m }))],
          },
          armField(armOptions(db), params.arm),
          {
            name: "status",
            label: "Status",
            value: filters.status,
            options: [ALL("all"), { value: "completed", label: "completed" }, { value: "failed", label: "failed" }],
          },
          {
            name: "disagreement",
            label: "Judges",
            value: filters.disagreement,
            options: [ALL("any"), { value: "1", label: "disagree" }],
          },
        ]}
      >
        <label className="search">
          <span>Search prompts and trajectories</span>
          <input
            type="search"
            name="q"
            defaultValue={filters.q}
            placeholder="e.g. pip install"
            data-testid="runs-search"
          />
        </label>
      </FilterBar>
      <p className="muted" data-testid="runs-total">
        {runsTotalText(total, searchCap)}
      </p>
      {total === 0 ? (
        <EmptyState title="No runs match these filters" testId="runs-empty">
          <Link href="/runs">Clear the filters</Link>
        </EmptyState>
      ) : (
        <>
          <ExportLinks table="runs" query={{ ...kept, sort: params.sort, dir: params.dir }} />
          <RunsBrowser
            rows={rows}
            total={total}
            sort={params.sort}
            dir={params.dir}
            page={params.page}
            size={params.size}
            query={kept}
          />
        </>
      )}
    </section>
  );
}
