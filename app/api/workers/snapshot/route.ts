import { z } from "zod";
import { snapshotManifest } from "@/db/queries/worker-supply";
import type { SnapshotManifest } from "@/lib/remote/api";
import { queryOf, workerRoute } from "../worker-route";

export const runtime = "nodejs";

/** GET /api/workers/snapshot?digest= — a repository snapshot's files (path, content hash, mode) in digest order. */
export function GET(request: Request): Promise<Response> {
  return workerRoute("GET /api/workers/snapshot", request, (db) => {
    const { digest } = queryOf(request, z.object({ digest: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex") }));
    const answer: SnapshotManifest = { digest, files: snapshotManifest(db, digest) };
    // Same digest, same files: a worker (or a proxy) may keep it.
    return Response.json(answer, { headers: { "cache-control": "private, max-age=31536000, immutable" } });
  });
}
