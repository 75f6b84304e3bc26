import { getAppDb } from "@/db/app-db";
import { authorizeReader } from "@/app/session";
import { listCaseStudies } from "@/db/queries/case-studies";
import { resolveDashboardScope, resolveRunsScope } from "@/db/queries/dashboard-scope";
import { compareView, overviewView } from "@/db/queries/dashboard-views";
import { runsFilterFor, searchRuns } from "@/db/queries/runs";
import { caseStudyExportRows } from "@/lib/case-studies/gallery";
import { GalleryParamsSchema } from "@/lib/case-studies/schema";
import { exportBody, type ExportFormat, type ExportRow } from "@/lib/util/export-body";
import { overviewExportRows } from "@/lib/dashboard/overview";
import { ablationExportRows, PUBLISHED_ABLATION } from "@/lib/dashboard/ablation-report";
import { ablationView } from "@/db/queries/ablation";
import {
  AblationParamsSchema,
  CompareParamsSchema,
  OverviewParamsSchema,
  parseParams,
  RunsParamsSchema,
  type SearchParams,
} from "@/lib/dashboard/params";
import { metricsInMask } from "@/lib/metrics/catalog";
import { errorResponse } from "@/lib/errors/action-result";
import { AppError } from "@/lib/errors/app-error";

export const runtime = "nodejs";

/** Largest runs export: the whole 100,000-run scale database fits. */
const MAX_EXPORT_RUNS = 200_000;

function parsed<T>(result: { ok: true; value: T } | { ok: false; errors: string[] }): T {
  if (!result.ok) throw new AppError("INVALID_INPUT", result.errors.join("; "));
  return result.value;
}

function scopeOf(params: { benchmark?: string; judge?: number }) {
  const scope = resolveDashboardScope(getAppDb(), params);
  if (scope.kind === "error") throw new AppError("NOT_FOUND", scope.errors.join("; "));
  if (scope.kind === "no-runs" || scope.judgeId === null) throw new AppError("NOT_FOUND", "no judged runs to export");
  return { ...scope, judgeId: scope.judgeId };
}

function overviewRows(query: SearchParams): { rows: ExportRow[]; meta: Record<string, unknown> } {
  const params = parsed(parseParams(OverviewParamsSchema, query));
  const { filter, tables } = overviewView(getAppDb(), params, scopeOf(params));
  return { rows: overviewExportRows(tables), meta: { table: "overview", filter } };
}

function runsRows(query: SearchParams): { rows: ExportRow[]; meta: Record<string, unknown> } {
  const params = parsed(parseParams(RunsParamsSchema, query));
  const scope = resolveRunsScope(getAppDb(), params);
  if (scope.kind !== "ok")
    throw new AppError("NOT_FOUND", scope.kind === "error" ? scope.errors.join("; ") : "no runs to export");
  const filter = runsFilterFor(params, scope, { limit: MAX_EXPORT_RUNS, offset: 0 });
  const page = searchRuns(getAppDb(), filter);
  const rows = page.rows.map(({ violatedMask, decidedMask, disagreementMask, taskCheck, ...run }) => ({
    ...run,
    task_check: taskCheck?.outcome ?? null,
    task_check_reason: taskCheck?.reason ?? null,
    violated: violatedMask === null ? null : metricsInMask(violatedMask).join(" "),
    decided: decidedMask === null ? null : metricsInMask(decidedMask).join(" "),
    judges_disagree_on: metricsInMask(disagreementMask).join(" "),
  }));
  return {
    rows,
    meta: { table: "runs", filter, total: page.total, truncated: page.total > rows.length, searchCap: page.searchCap },
  };
}

function compareRows(query: SearchParams): { rows: ExportRow[]; meta: Record<string, unknown> } {
  const params = parsed(parseParams(CompareParamsSchema, query));
  const scope = scopeOf(params);
  const { configs, a, b, comparison } = compareView(getAppDb(), params, scope);
  if (!comparison) throw new AppError("INVALID_INPUT", "a, b: pick two different configurations");
  return {
    rows: comparison.metrics.map((m) => ({ ...m })),
    meta: {
      table: "compare",
      benchmark: scope.benchmarkId,
      judge: scope.judgeId,
      a: configs.find((c) => c.id === a) ?? a,
      b: configs.find((c) => c.id === b) ?? b,
      pairs: comparison.pairs,
      differing: comparison.differing,
    },
  };
}

function ablationRows(query: SearchParams): { rows: ExportRow[]; meta: Record<string, unknown> } {
  const params = parsed(parseParams(AblationParamsSchema, query));
  const scope = scopeOf(params);
  const { group, table } = ablationView(getAppDb(), {
    benchmarkId: scope.benchmarkId,
    judgeId: scope.judgeId,
    baseId: params.config,
  });
  if (!group || !table)
    throw new AppError("NOT_FOUND", "config: no ablation (a configuration judged under two arms or more)");
  return {
    rows: ablationExportRows(table),
    meta: {
      table: "ablation",
      benchmark: scope.benchmarkId,
      judge: scope.judgeId,
      configuration: group,
      baseline: table.baseline,
      instances: table.instances,
      scripted: table.scripted,
      published: PUBLISHED_ABLATION,
    },
  };
}

function caseStudiesRows(query: SearchParams): { rows: ExportRow[]; meta: Record<string, unknown> } {
  const filter = parsed(parseParams(GalleryParamsSchema, query));
  const gallery = listCaseStudies(getAppDb(), filter);
  return { rows: caseStudyExportRows(gallery.cards), meta: { table: "case-studies", filter, total: gallery.total } };
}

const TABLES = {
  overview: overviewRows,
  runs: runsRows,
  compare: compareRows,
  ablation: ablationRows,
  "case-studies": caseStudiesRows,
} as const;

/** GET /api/export/{overview|runs|compare|ablation|case-studies}?format=csv|json&<the page's filters> */
export async function GET(request: Request, context: { params: Promise<{ table: string }> }): Promise<Response> {
  try {
    const { table } = await context.params;
    // Case studies are admin-only once a study is active; the rest is the dashboard's (lib/auth/access.ts).
    await authorizeReader(table === "case-studies" ? "case-studies" : "dashboard");
    const url = new URL(request.url);
    const format = (url.searchParams.get("format") ?? "csv") as ExportFormat;
    if (format !== "csv" && format !== "json")
      throw new AppError("INVALID_INPUT", `format: expected csv or json, got "${format}"`);
    if (!Object.hasOwn(TABLES, table))
      throw new AppError("NOT_FOUND", `no export "${table}" (${Object.keys(TABLES).join(", ")})`);
    const query = Object.fromEntries(url.searchParams);
    delete query.format;
    const { rows, meta } = TABLES[table as keyof typeof TABLES](query);
    const { body, contentType } = exportBody(rows, format, { ...meta, exportedAt: new Date().toISOString() });
    return new Response(body, {
      headers: {
        "content-type": contentType,
        "content-disposition": `attachment; filename="${table}.${format}"`,
        "cache-control": "no-store",
      },
    });
  } catch (error) {
    return errorResponse("GET /api/export/[table]", error);
  }
}
