import { contentsByHash } from "@/db/queries/worker-supply";
import { zipBuffer } from "@/lib/bundle/write";
import { AppError } from "@/lib/errors/app-error";
import { ContentsRequestSchema, MAX_CONTENT_HASHES, MAX_CONTENTS_ANSWER_BYTES } from "@/lib/remote/api";
import { readBodyCapped } from "@/lib/bundle/import-request";
import { workerRoute } from "../worker-route";

export const runtime = "nodejs";

/**
 * POST /api/workers/contents `{ "hashes": [...] }` — file contents by sha256 as a zip whose entries
 * are named by hash, in the order asked, stopping before 64 MB (at least one): the worker asks
 * again for the ones not in the answer.
 */
export function POST(request: Request): Promise<Response> {
  return workerRoute("POST /api/workers/contents", request, async (db) => {
    const body = await readBodyCapped(request.body, MAX_CONTENT_HASHES * 80 + 1024, { timeoutMs: 30_000 });
    let json: unknown;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      throw new AppError("INVALID_INPUT", 'expected a JSON body { "hashes": [...] }');
    }
    const parsed = ContentsRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError("INVALID_INPUT", `${issue?.path.join(".") || "body"}: ${issue?.message}`);
    }
    const contents = contentsByHash(db, parsed.data.hashes, MAX_CONTENTS_ANSWER_BYTES);
    const zip = await zipBuffer(contents);
    return new Response(new Uint8Array(zip), { headers: { "content-type": "application/zip" } });
  });
}
