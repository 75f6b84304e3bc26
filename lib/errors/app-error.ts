/**
 * The one error type of the project. Thrown anywhere, translated once per boundary: a route
 * handler's HTTP status + safe message and a server action's result (`errorResponse`,
 * `runAction` in ./action-result.ts), a CLI's exit code + one line.
 */
export type ErrorCode =
  | "INVALID_INPUT"
  | "BUNDLE_INVALID"
  | "TOO_LARGE"
  | "NOT_FOUND"
  | "CONFLICT"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "UNAVAILABLE"
  | "INTERNAL";

export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AppError";
    this.code = code;
  }
}

const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  BUNDLE_INVALID: 422,
  TOO_LARGE: 413,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export function httpStatusOf(error: unknown): number {
  return error instanceof AppError ? HTTP_STATUS[error.code] : 500;
}

/** A message that is safe to show a client: internal errors never leak their details. */
export function publicMessageOf(error: unknown): string {
  if (error instanceof AppError && error.code !== "INTERNAL") return error.message;
  return "internal error (see the server log)";
}

export function isAppError(error: unknown, code?: ErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}
