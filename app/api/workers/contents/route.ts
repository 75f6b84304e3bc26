import { contentsByHash } from "@/db/queries/worker-supply";
import { zipBuffer } from "@/lib/bundle/write";
import { ContentsRequestSchema, MAX_CONTENT_HASHES, MAX_CONTENTS_ANSWER_BYTES } from "@/lib/remote/api";
import { jsonBodyOf, workerRoute } from "../worker-route";

export const runtime = "nodejs";

/**
 * POST /api/workers/contents `{ "hashes": [...] }` — file contents by sha256 as a zip whose entries
 * are named by hash, in the order asked, stopping before 64 MB (at least one): the worker asks
 * again for the ones not in the answer.
 */
export function POST(request: Request): Promise<Response> {
  return workerRoute("POST /api/workers/contents", request, async (db) => {
    const { hashes } = await jsonBodyOf(
      request,
      ContentsRequestSchema,
      MAX_CONTENT_HASHES * 80 + 1024,
      '{ "hashes": [...] }',
    );
    const contents = contentsByHash(db, hashes, MAX_CONTENTS_ANSWER_BYTES);
    const zip = await zipBuffer(contents);
    return new Response(new Uint8Array(zip), { headers: { "content-type": "application/zip" } });
  });
}
