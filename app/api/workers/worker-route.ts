import { getAppDb } from "@/db/app-db";
import type { Db } from "@/db/client";
import { checkBearerToken, readBodyCapped } from "@/lib/bundle/import-request";
import { loadEnv } from "@/lib/config/env";
import { errorResponse } from "@/lib/errors/action-result";
import { AppError } from "@/lib/errors/app-error";
import type { z } from "zod";

/**
 * One worker endpoint: the bearer token checked (the same STUDIO_INGEST_TOKEN as the import
 * endpoint: a worker both reads instances and pushes runs), then the handler on the app's database.
 * Errors become `{ error }` with their status.
 */
export async function workerRoute(
  what: string,
  request: Request,
  handler: (db: Db) => Response | Promise<Response>,
): Promise<Response> {
  try {
    let token: string | undefined;
    try {
      token = loadEnv().STUDIO_INGEST_TOKEN;
    } catch (error) {
      throw new AppError("INTERNAL", "server configuration error", { cause: error });
    }
    checkBearerToken(request.headers.get("authorization"), token);
    return await handler(getAppDb());
  } catch (error) {
    return errorResponse(what, error);
  }
}

/** The query string checked by a schema; a bad parameter is a 400 naming it. */
export function queryOf<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("INVALID_INPUT", `${issue?.path.join(".") || "query"}: ${issue?.message}`);
  }
  return parsed.data;
}

/** A JSON body of at most `maxBytes`, checked by a schema; a bad one is a 400 naming the field. */
export async function jsonBodyOf<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes: number,
  expected: string,
): Promise<z.infer<S>> {
  const body = await readBodyCapped(request.body, maxBytes, { timeoutMs: 30_000 });
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    throw new AppError("INVALID_INPUT", `expected a JSON body ${expected}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("INVALID_INPUT", `${issue?.path.join(".") || "body"}: ${issue?.message}`);
  }
  return parsed.data;
}
