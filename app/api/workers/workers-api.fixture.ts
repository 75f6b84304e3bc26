/**
 * The workers' API without a server, for tests: a studio client whose requests go straight to the
 * route handlers of app/api/workers/*, on the database the test puts in place of the app's.
 */
import type { Db } from "@/db/client";
import { createStudioClient, type StudioClient } from "@/lib/remote/studio-client";
import * as contents from "./contents/route";
import * as evaluationInputs from "./evaluation-inputs/route";
import * as instance from "./instance/route";
import * as plan from "./plan/route";
import * as snapshot from "./snapshot/route";
import * as verdicts from "./verdicts/route";

export const WORKERS_API_TOKEN = "workers-api-fixture-token-0123456789";

type Handlers = { GET?: (request: Request) => Promise<Response>; POST?: (request: Request) => Promise<Response> };
const ROUTES: Record<string, Handlers> = {
  "/api/workers/contents": contents,
  "/api/workers/evaluation-inputs": evaluationInputs,
  "/api/workers/instance": instance,
  "/api/workers/plan": plan,
  "/api/workers/snapshot": snapshot,
  "/api/workers/verdicts": verdicts,
};

/** Makes `db` the app's database and sets the ingest token the routes check. */
export function serveWorkersApi(db: Db): void {
  process.env.STUDIO_INGEST_TOKEN = WORKERS_API_TOKEN;
  (globalThis as { __studioDb?: Db }).__studioDb = db;
}

/** A studio client on the route handlers (no retries: a test wants the first answer). */
export function workersApiClient(token = WORKERS_API_TOKEN): StudioClient {
  return createStudioClient({
    url: "http://studio.test",
    token,
    attempts: 1,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const handler = ROUTES[new URL(request.url).pathname]?.[request.method as "GET" | "POST"];
      return handler ? handler(request) : new Response("not found", { status: 404 });
    },
  });
}
