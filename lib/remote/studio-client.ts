/**
 * A worker's side of the studio's HTTP API: bearer token, bounded reads, time limits, and retries
 * with exponential backoff for what may pass (network errors, 429, 5xx, Retry-After honoured). A
 * refusal (other 4xx) is not retried: it becomes one error naming the request and the studio's
 * reason.
 */
import type { z } from "zod";
import { AppError, type ErrorCode } from "@/lib/errors/app-error";

export interface StudioClientOptions {
  /** The studio's base URL, e.g. http://studio:3000. */
  url: string;
  token: string;
  /** Attempts per request (1 = no retry). */
  attempts?: number;
  /** The first backoff; each retry doubles it, up to 30 s. */
  backoffMs?: number;
  timeoutMs?: number;
  /** The global fetch unless a test gives another. */
  fetch?: typeof fetch;
  /** Told of each retry, e.g. to print it. */
  onRetry?(what: string, attempt: number, reason: string, waitMs: number): void;
}

export interface StudioClient {
  readonly url: string;
  /** GET a JSON answer, checked by the schema. */
  getJson<T>(pathAndQuery: string, schema: z.ZodType<T>): Promise<T>;
  /** POST a body; the answer's bytes (at most maxBytes) and content type. */
  post(
    pathAndQuery: string,
    body: Buffer | string,
    contentType: string,
    maxBytes?: number,
  ): Promise<{ status: number; data: Buffer }>;
}

const MAX_JSON_BYTES = 64 * 1024 * 1024;

/** A refusal's status as our error code: a worker treats a 409 on a push as "already there". */
const REFUSALS: Record<number, ErrorCode> = {
  401: "UNAUTHORIZED",
  403: "UNAUTHORIZED",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "TOO_LARGE",
};
const MAX_BACKOFF_MS = 30_000;

class Retryable extends Error {
  constructor(
    message: string,
    readonly waitMs?: number,
  ) {
    super(message);
  }
}

async function readCapped(response: Response, maxBytes: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AppError("TOO_LARGE", `${what}: the studio's answer exceeds ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

function retryAfterMs(response: Response): number | undefined {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_BACKOFF_MS) : undefined;
}

/** The studio's `{ error }` message, or the start of whatever it said. */
function reasonOf(data: Buffer): string {
  const text = data.toString("utf8", 0, Math.min(data.length, 2000));
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 300) || "(no message)";
}

export function createStudioClient(options: StudioClientOptions): StudioClient {
  let base: URL;
  try {
    base = new URL(options.url);
  } catch {
    throw new AppError("INVALID_INPUT", `studio URL "${options.url}" is not a URL (expected e.g. http://host:3000)`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new AppError("INVALID_INPUT", `studio URL "${options.url}": expected http:// or https://`);
  const root = base.href.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const attempts = options.attempts ?? 6;
  const backoffMs = options.backoffMs ?? 500;
  const timeoutMs = options.timeoutMs ?? 120_000;

  async function once(method: string, pathAndQuery: string, init: RequestInit, maxBytes: number) {
    const what = `${method} ${pathAndQuery}`;
    let response: Response;
    try {
      response = await doFetch(`${root}${pathAndQuery}`, {
        ...init,
        method,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${options.token}` },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
      throw new Retryable(`${what}: the studio at ${root} did not answer (${cause || String(error)})`);
    }
    const data = await readCapped(response, maxBytes, what).catch((error: unknown) => {
      if (error instanceof AppError) throw error;
      throw new Retryable(`${what}: the answer was cut off (${error instanceof Error ? error.message : error})`);
    });
    if (response.status === 429 || response.status >= 500)
      throw new Retryable(`${what}: ${response.status} ${reasonOf(data)}`, retryAfterMs(response));
    if (response.status >= 400)
      throw new AppError(
        REFUSALS[response.status] ?? "INVALID_INPUT",
        `the studio refused ${what}: ${response.status} ${reasonOf(data)}`,
      );
    return { status: response.status, data };
  }

  async function request(method: string, pathAndQuery: string, init: RequestInit, maxBytes: number) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(method, pathAndQuery, init, maxBytes);
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        if (attempt >= attempts)
          throw new AppError("UNAVAILABLE", `${error.message}; gave up after ${attempts} attempt(s)`);
        const waitMs = error.waitMs ?? Math.min(backoffMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
        options.onRetry?.(`${method} ${pathAndQuery}`, attempt, error.message, waitMs);
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  return {
    url: root,
    async getJson(pathAndQuery, schema) {
      const { data } = await request("GET", pathAndQuery, {}, MAX_JSON_BYTES);
      let value: unknown;
      try {
        value = JSON.parse(data.toString("utf8"));
      } catch {
        throw new AppError("INVALID_INPUT", `GET ${pathAndQuery}: the studio's answer is not JSON`);
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(
          "INVALID_INPUT",
          `GET ${pathAndQuery}: unexpected answer at ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
        );
      }
      return parsed.data;
    },
    post(pathAndQuery, body, contentType, maxBytes = MAX_JSON_BYTES) {
      const payload = typeof body === "string" ? body : Uint8Array.from(body);
      return request("POST", pathAndQuery, { body: payload, headers: { "content-type": contentType } }, maxBytes);
    },
  };
}
