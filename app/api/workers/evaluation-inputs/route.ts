import { evaluationMaterials } from "@/db/queries/remote-evaluation";
import { EvaluationInputsRequestSchema, MAX_EVALUATION_INPUTS_BYTES } from "@/lib/remote/evaluation-api";
import { jsonBodyOf, workerRoute } from "../worker-route";

export const runtime = "nodejs";

/**
 * POST /api/workers/evaluation-inputs `{ "runs": [...] }` — what the judges read of each run
 * (its trajectory, changed files with contents, snapshots, instance), built by the studio's own
 * loader, in the order asked, stopping before 48 MB (at least one run): the worker asks again for
 * the rest. Also whether each run has its AST report.
 */
export function POST(request: Request): Promise<Response> {
  return workerRoute("POST /api/workers/evaluation-inputs", request, async (db) => {
    const { runs } = await jsonBodyOf(request, EvaluationInputsRequestSchema, 64 * 1024, '{ "runs": [...] }');
    return Response.json(evaluationMaterials(db, runs, MAX_EVALUATION_INPUTS_BYTES));
  });
}
