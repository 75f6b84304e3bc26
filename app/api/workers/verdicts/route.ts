import { storePostedRun } from "@/db/queries/remote-evaluation";
import {
  checkPostedJudge,
  MAX_POSTED_EVALUATIONS_BYTES,
  postedArtifact,
  PostedEvaluationsSchema,
  type PostedEvaluationsAnswer,
} from "@/lib/remote/evaluation-api";
import { jsonBodyOf, workerRoute } from "../worker-route";

export const runtime = "nodejs";

/**
 * POST /api/workers/verdicts `{ force, runs: [{ runId, verdicts, artifacts }] }` — verdicts a worker
 * judged, each run stored in one transaction as a local evaluation stores it. Idempotent: a run
 * whose posted verdicts are already stored is "unchanged". A verdict of a judge this studio's code
 * is not (another rule judge version, an LLM prompt that differs) refuses the whole post with 409.
 */
export function POST(request: Request): Promise<Response> {
  return workerRoute("POST /api/workers/verdicts", request, async (db) => {
    const posted = await jsonBodyOf(request, PostedEvaluationsSchema, MAX_POSTED_EVALUATIONS_BYTES, "{ force, runs }");
    for (const run of posted.runs) for (const verdict of run.verdicts) await checkPostedJudge(verdict);
    const runs = posted.runs.map((run) => ({ ...run, artifacts: run.artifacts.map(postedArtifact) }));
    const answer: PostedEvaluationsAnswer = {
      runs: runs.map((run) => ({ runId: run.runId, outcome: storePostedRun(db, run, posted.force) })),
    };
    return Response.json(answer);
  });
}
