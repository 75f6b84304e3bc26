import { getAppDb } from "@/db/app-db";
import { importParsedBundle } from "@/db/queries/run-import";
import { checkBearerToken, archiveKindOfBytes, readBodyCapped } from "@/lib/bundle/import-request";
import { parseBundle } from "@/lib/bundle/parse";
import { readArchiveBuffer } from "@/lib/bundle/read";
import { loadEnv, readLimitsFrom } from "@/lib/config/env";
import { AppError, httpStatusOf, publicMessageOf } from "@/lib/errors/app-error";

export const runtime = "nodejs";

/** A bad server setting is the operator's problem, not the client's: 500, details in the log. */
function serverEnv() {
  try {
    return loadEnv();
  } catch (error) {
    throw new AppError("INTERNAL", "server configuration error", { cause: error });
  }
}

/**
 * POST /api/runs/import — remote workers push one run bundle (.tar.gz or .zip) per request.
 * Authorization: Bearer $STUDIO_INGEST_TOKEN. Same validation and transaction as `npm run ingest`.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const env = serverEnv();
    checkBearerToken(request.headers.get("authorization"), env.STUDIO_INGEST_TOKEN);
    const limits = readLimitsFrom(env);
    const data = await readBodyCapped(request.body, limits.maxBundleBytes);
    const kind = archiveKindOfBytes(data);
    if (!kind) throw new AppError("INVALID_INPUT", "the body is not a .tar.gz, .tar or .zip archive");
    const url = new URL(request.url);
    const label = (url.searchParams.get("name") ?? "request body").slice(0, 200);
    const parsed = parseBundle(await readArchiveBuffer(data, kind, label, limits), label);
    const result = importParsedBundle(getAppDb(), parsed, {
      via: "http",
      replace: url.searchParams.get("replace") === "1",
    });
    return Response.json(result, { status: result.outcome === "unchanged" ? 200 : 201 });
  } catch (error) {
    const status = httpStatusOf(error);
    if (status >= 500) console.error("POST /api/runs/import failed:", error);
    return Response.json({ error: publicMessageOf(error) }, { status });
  }
}
