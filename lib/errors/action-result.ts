/**
 * The one answer of every server action and the one error response of every route handler:
 * what a thrown error becomes at the web boundary. The client sees the safe message
 * (`publicMessageOf`); anything unexpected goes to the server log with its details.
 */
import { isAppError, httpStatusOf, publicMessageOf } from "./app-error";

/** One problem per form field, in the words shown under the field. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * What a server action answers. `Ok` is what a success carries (a message to show, by default);
 * a refused form may name each field's problem (`F`: the form's field names).
 */
export type ActionResult<F extends string = never, Ok extends object = { message: string }> =
  ({ ok: true } & Ok) | { ok: false; error: string; fieldErrors?: FieldErrors<F> };

export type ActionFailure = { ok: false; error: string };

/** Unexpected errors (not an AppError, or INTERNAL) are logged; the others are the client's to read. */
function logIfUnexpected(what: string, error: unknown): void {
  if (!isAppError(error) || error.code === "INTERNAL") console.error(`${what} failed:`, error);
}

/** A thrown error as an action's answer. */
export function actionFailure(what: string, error: unknown): ActionFailure {
  logIfUnexpected(what, error);
  return { ok: false, error: publicMessageOf(error) };
}

/**
 * Runs an action's body and answers what it throws as a failure. `redirect()` works by throwing:
 * call it after this returns, never inside `body`.
 */
export async function runAction<R>(what: string, body: () => R | Promise<R>): Promise<R | ActionFailure> {
  try {
    return await body();
  } catch (error) {
    return actionFailure(what, error);
  }
}

/**
 * A thrown error as a route handler's JSON answer: `{ error }` with the AppError's HTTP status.
 * A 5xx is logged unless `quiet` (a refusal the route expects, such as a busy import pool).
 */
export function errorResponse(
  what: string,
  error: unknown,
  init: { headers?: HeadersInit; quiet?: boolean } = {},
): Response {
  const status = httpStatusOf(error);
  if (status >= 500 && !init.quiet) console.error(`${what} failed:`, error);
  return Response.json({ error: publicMessageOf(error) }, { status, headers: init.headers });
}
