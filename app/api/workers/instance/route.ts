import { z } from "zod";
import { workerInstance } from "@/db/queries/worker-supply";
import { queryOf, workerRoute } from "../worker-route";

export const runtime = "nodejs";

/** GET /api/workers/instance?id= — an instance, its repository snapshot's digest and its setup by content hash. */
export function GET(request: Request): Promise<Response> {
  return workerRoute("GET /api/workers/instance", request, (db) => {
    const { id } = queryOf(request, z.object({ id: z.string().min(1).max(500) }));
    return Response.json(workerInstance(db, id));
  });
}
