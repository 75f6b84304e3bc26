import { getAppDb } from "@/db/app-db";
import { importParsedBundle } from "@/db/queries/run-import";
import { createImportPool, ImportBusyError, type ImportPool } from "@/lib/bundle/import-pool";
import { checkBearerToken, archiveKindOfBytes, readBodyCapped } from "@/lib/bundle/import-request";
import { loadEnv, readLimitsFrom, type Env } from "@/lib/config/env";
import { errorResponse } from "@/lib/errors/action-result";
import { AppError } from "@/lib/errors/app-error";

export const runtime = "nodejs";

/** A bad server setting is the operator's problem, not the client's: 500, details in the log. */
function serverEnv() {
  try {
    return loadEnv();
  } catch (error) {
    throw new AppError("INTERNAL", "server configuration error", { cause: error });
  }
}

let pool: ImportPool | null = null;

/** One pool per server process: its slot count is the cap on imports at once. */
function importPool(env: Env): ImportPool {
  pool ??= createImportPool({
    maxConcurrent: env.STUDIO_IMPORT_CONCURRENCY,
    workerMemoryMb: env.STUDIO_IMPORT_WORKER_MEMORY_MB,
    timeoutMs: env.STUDIO_IMPORT_TIMEOUT_SECONDS * 1000,
  });
  return pool;
}

/**
 * POST /api/runs/import — remote workers push one run bundle (.tar.gz or .zip) per request.
 * Authorization: Bearer $STUDIO_INGEST_TOKEN. Same validation and transaction as `npm run ingest`;
 * the archive is read and parsed in a worker thread, so pages keep answering meanwhile.
 */
export async function POST(request: Request): Promise<Response> {
  let release: (() => void) | null = null;
  try {
    const env = serverEnv();
    checkBearerToken(request.headers.get("authorization"), env.STUDIO_INGEST_TOKEN);
    // A slot is taken before the body is read: a refused upload costs nothing.
    release = importPool(env).acquire();
    const limits = readLimitsFrom(env);
    const length = Number(request.headers.get("content-length") ?? "");
    const declared = Number.isSafeInteger(length) && length > 0 ? length : undefined;
    const data = await readBodyCapped(request.body, limits.maxBundleBytes, {
      declaredLength: declared,
      timeoutMs: env.STUDIO_IMPORT_TIMEOUT_SECONDS * 1000,
    });
    const kind = archiveKindOfBytes(data);
    if (!kind) throw new AppError("INVALID_INPUT", "the body is not a .tar.gz, .tar or .zip archive");
    const url = new URL(request.url);
    const label = (url.searchParams.get("name") ?? "request body").slice(0, 200);
    const { bundle } = await importPool(env).parse({ data, kind, label, limits });
    const result = importParsedBundle(getAppDb(), bundle, {
      via: "http",
      replace: url.searchParams.get("replace") === "1",
    });
    return Response.json(result, { status: result.outcome === "unchanged" ? 200 : 201 });
  } catch (error) {
    const busy = error instanceof ImportBusyError;
    const headers = busy ? { "Retry-After": String(error.retryAfterSeconds) } : undefined;
    return errorResponse("POST /api/runs/import", error, { headers, quiet: busy });
  } finally {
    release?.();
  }
}
