/**
 * HTTP plumbing the protocol adapters share: JSON bodies and answers, server-sent events, and the
 * chunking of a scripted answer into stream pieces.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

const MAX_BODY_BYTES = 20 * 1024 * 1024;

/** The request body as JSON; not ok when it is too large or not JSON. */
export async function readJsonBody(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return { ok: false };
    chunks.push(buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    return { ok: false };
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * A server-sent event stream. `Connection: close` makes Node close the socket after the last
 * event: coding-agent CLIs otherwise wait on the kept-alive connection and retry (SOURCES.md).
 */
export interface SseStream {
  /** `data: <json>` (with `event: <name>` first when given). */
  send(data: unknown, event?: string): void;
  /** A raw data line, e.g. OpenAI's `[DONE]`. */
  sendRaw(data: string): void;
  end(): void;
}

export function startSse(res: ServerResponse): SseStream {
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    Connection: "close",
  });
  const write = (text: string) => {
    if (!res.destroyed && !res.writableEnded) res.write(text);
  };
  return {
    send: (data, event) => write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`),
    sendRaw: (data) => write(`data: ${data}\n\n`),
    end: () => {
      if (!res.writableEnded) res.end();
    },
  };
}

/** Splits a text into up to `parts` non-empty pieces, as a streamed answer arrives. */
export function splitText(text: string, parts = 3): string[] {
  if (text.length < parts) return text === "" ? [] : [text];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

export const unixSeconds = () => Math.floor(Date.now() / 1000);

/** Anthropic's, OpenAI's and Google's error type names for the statuses a script may answer with. */
export function errorKind(status: number): { anthropic: string; openai: string; google: string } {
  const table: Record<number, [string, string, string]> = {
    400: ["invalid_request_error", "invalid_request_error", "INVALID_ARGUMENT"],
    401: ["authentication_error", "invalid_request_error", "UNAUTHENTICATED"],
    403: ["permission_error", "invalid_request_error", "PERMISSION_DENIED"],
    404: ["not_found_error", "invalid_request_error", "NOT_FOUND"],
    408: ["timeout_error", "server_error", "DEADLINE_EXCEEDED"],
    413: ["request_too_large", "invalid_request_error", "INVALID_ARGUMENT"],
    429: ["rate_limit_error", "rate_limit_exceeded", "RESOURCE_EXHAUSTED"],
    503: ["overloaded_error", "server_error", "UNAVAILABLE"],
    529: ["overloaded_error", "server_error", "UNAVAILABLE"],
  };
  const [anthropic, openai, google] =
    table[status] ??
    (status >= 500
      ? ["api_error", "server_error", "INTERNAL"]
      : ["invalid_request_error", "invalid_request_error", "FAILED_PRECONDITION"]);
  return { anthropic, openai, google };
}
