import { planRuns } from "@/db/queries/run-plan";
import { WorkerPlanQuerySchema, type WorkerPlan } from "@/lib/remote/api";
import { queryOf, workerRoute } from "../worker-route";

export const runtime = "nodejs";

/**
 * GET /api/workers/plan?benchmark=&config=[&split=eval][&subtask=][&perSubtask=][&limit=][&shard=i/n][&instances=a,b]
 * — the runs one agent configuration has still to make, as `run-agents` plans them locally
 * (db/queries/run-plan.ts): a worker with `--push` plans here, so what the studio has is skipped.
 */
export function GET(request: Request): Promise<Response> {
  return workerRoute("GET /api/workers/plan", request, (db) => {
    const query = queryOf(request, WorkerPlanQuerySchema);
    const plan = planRuns(db, {
      benchmarkId: query.benchmark,
      configId: query.config,
      splitOnly: query.split === "eval",
      subtask: query.subtask,
      perSubtask: query.perSubtask,
      limit: query.limit,
      shard: query.shard,
      instanceIds: query.instances,
    });
    const answer: WorkerPlan = {
      matched: plan.matched,
      alreadyRun: plan.alreadyRun,
      todo: plan.todo.map(({ instance, runId }) => ({ instanceId: instance.id, runId })),
    };
    return Response.json(answer);
  });
}
