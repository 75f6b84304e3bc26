import { getAppDb } from "@/db/app-db";
import { isAssignedRun } from "@/db/queries/agreement-queue";
import { getChangedFileContent } from "@/db/queries/run-changes";
import { canRead, currentUser } from "@/app/session";
import { RunIdSchema } from "@/lib/bundle/schema";
import { errorResponse } from "@/lib/errors/action-result";
import { AppError } from "@/lib/errors/app-error";
import { RunFileQuerySchema } from "@/lib/runs/schema";
import { safeDecode } from "@/lib/util/decode";

export const runtime = "nodejs";

/**
 * Who may read a run's files: whoever may read the dashboard, and an annotator the run is
 * assigned to (the labeling workspace shows its diffs).
 */
async function authorizeRunFiles(runId: string): Promise<void> {
  if (await canRead("dashboard")) return;
  const user = await currentUser();
  if (!user) throw new AppError("UNAUTHORIZED", "Sign in first.");
  if (!isAssignedRun(getAppDb(), runId, user.id)) throw new AppError("FORBIDDEN", "this run is not assigned to you");
}

/**
 * GET /api/runs/<id>/files?path=<workspace path> — one changed file's diff contents (before and
 * after), for the diffs the run page leaves out of its first load (see lib/runs/file-content.ts).
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const id = RunIdSchema.safeParse(safeDecode((await params).id));
    if (!id.success) throw new AppError("INVALID_INPUT", "not a run id");
    await authorizeRunFiles(id.data);
    const query = RunFileQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw new AppError("INVALID_INPUT", "give the file as ?path=<workspace-relative path>");
    const content = getChangedFileContent(getAppDb(), id.data, query.data.path);
    if (!content) throw new AppError("NOT_FOUND", `run ${id.data} changed no file ${query.data.path}`);
    return Response.json(content, { headers: { "cache-control": "private, max-age=300" } });
  } catch (error) {
    return errorResponse("GET /api/runs/[id]/files", error);
  }
}
