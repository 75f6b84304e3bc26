import { getAppDb } from "@/db/app-db";
import { instanceRefs } from "@/db/queries/benchmarks";
import { importParsedBundle } from "@/db/queries/run-import";
import { FOREIGN_FORMATS, foreignFormat } from "@/lib/foreign/formats";
import { foreignBundlesInWorker } from "@/lib/foreign/import-in-worker";
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
 * A foreign log over HTTP is read in an import worker, but its readers, unlike a bundle's, have no
 * budget of heap per JSON byte: its body is capped lower than a bundle's, so that reading it fits
 * the worker's heap cap. Larger logs go through `npm run ingest`.
 */
export const MAX_FOREIGN_BODY_BYTES = 64 * 1024 * 1024;

/**
 * POST /api/runs/import — remote workers push one run bundle (.tar.gz or .zip) per request, or one
 * native log of another agent or a repo diff (docs/foreign-runs.md): `?format=<id>` forces a reader,
 * `?format=auto` (or a body that is not an archive) detects it; `?name=` is the file's name,
 * `?benchmark=` the external benchmark when the log names none. Authorization: Bearer
 * $STUDIO_INGEST_TOKEN. Same validation and transaction as `npm run ingest`; a bundle archive or a
 * foreign log is read and parsed in a worker thread, so pages keep answering meanwhile.
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
    const url = new URL(request.url);
    const label = (url.searchParams.get("name") ?? "request body").slice(0, 200);
    const format = url.searchParams.get("format");
    if (format !== null || !kind) {
      return await importForeign(importPool(env), data, label, {
        format: format === null || format === "auto" ? null : format,
        benchmark: url.searchParams.get("benchmark"),
        replace: url.searchParams.get("replace") === "1",
      });
    }
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

/**
 * Every run of one foreign log: 201 when one went in, 200 when all were already in, 422 when none
 * could be read. The log is read in a worker (detection too: a detector reads the body); only the
 * database writes happen here.
 */
async function importForeign(
  pool: ImportPool,
  data: Buffer,
  name: string,
  options: { format: string | null; benchmark: string | null; replace: boolean },
): Promise<Response> {
  if (data.length > MAX_FOREIGN_BODY_BYTES) {
    throw new AppError(
      "TOO_LARGE",
      `a foreign log over HTTP is at most ${MAX_FOREIGN_BODY_BYTES} bytes; import larger ones with npm run ingest`,
    );
  }
  if (options.format !== null && !foreignFormat(options.format)) {
    throw new AppError(
      "INVALID_INPUT",
      `format: unknown format "${options.format}"; known: auto, ${FOREIGN_FORMATS.map((f) => f.id).join(", ")}`,
    );
  }
  const db = getAppDb();
  const outcomes = await foreignBundlesInWorker(pool, {
    data,
    label: name,
    format: options.format,
    benchmark: options.benchmark,
    ourInstances: instanceRefs(db),
  });
  const runs = outcomes.map((outcome) => {
    if (!outcome.ok) return { label: outcome.label, error: outcome.error };
    try {
      return {
        label: outcome.label,
        format: outcome.format,
        ...importParsedBundle(db, outcome.bundle, { via: "http", replace: options.replace }),
        warnings: outcome.warnings,
      };
    } catch (error) {
      return { label: outcome.label, error: error instanceof Error ? error.message : String(error) };
    }
  });
  const imported = runs.filter((r) => "outcome" in r);
  const status = imported.length === 0 ? 422 : imported.some((r) => r.outcome !== "unchanged") ? 201 : 200;
  return Response.json({ runs }, { status });
}
