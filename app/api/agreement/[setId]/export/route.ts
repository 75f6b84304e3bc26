import { getAppDb } from "@/db/app-db";
import { computedReport } from "@/db/queries/agreement-report";
import { authorize } from "@/app/session";
import { exportLabels, exportReport, manifestBody } from "@/lib/agreement/export";
import { errorResponse } from "@/lib/errors/action-result";
import { AppError } from "@/lib/errors/app-error";

export const runtime = "nodejs";

/**
 * GET /api/agreement/<set>/export?what=labels|report|manifest&format=csv|json (admins only: the
 * labels of every annotator and the judges' verdicts are in it). Every file carries the manifest
 * (set, seed, strata, k, judges with prompt versions) needed to recompute the report.
 */
export async function GET(request: Request, context: { params: Promise<{ setId: string }> }): Promise<Response> {
  try {
    await authorize(["admin"]);
    const setId = Number((await context.params).setId);
    if (!Number.isInteger(setId) || setId <= 0)
      throw new AppError("INVALID_INPUT", "set: expected a positive whole number");
    const url = new URL(request.url);
    const what = url.searchParams.get("what") ?? "report";
    const format = url.searchParams.get("format") ?? "json";
    if (format !== "csv" && format !== "json")
      throw new AppError("INVALID_INPUT", `format: expected csv or json, got "${format}"`);
    const { input, report } = computedReport(getAppDb(), setId);
    const options = { generatedAt: new Date().toISOString() };
    const file =
      what === "labels"
        ? exportLabels(input, format, options)
        : what === "report"
          ? exportReport(input, report, format, options)
          : what === "manifest"
            ? manifestBody(input, options)
            : null;
    if (!file) throw new AppError("INVALID_INPUT", `what: expected labels, report or manifest, got "${what}"`);
    return new Response(file.body, {
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "no-store",
      },
    });
  } catch (error) {
    return errorResponse("GET /api/agreement/[setId]/export", error);
  }
}
