/**
 * The pure parts of the HTTP import (POST /api/runs/import): token check, body size cap, and
 * recognising the archive by its magic bytes rather than trusting Content-Type.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "@/lib/errors/app-error";
import type { ArchiveKind } from "./read";
import { isGzip } from "./read-tar";

export function checkBearerToken(header: string | null, expected: string | undefined): void {
  if (!expected) {
    throw new AppError(
      "UNAVAILABLE",
      "the import and worker endpoints are disabled: set STUDIO_INGEST_TOKEN on the server",
    );
  }
  const match = /^Bearer (.+)$/.exec(header ?? "");
  if (!match?.[1]) throw new AppError("UNAUTHORIZED", "missing Authorization: Bearer <token> header");
  const digest = (s: string) => createHash("sha256").update(s).digest();
  if (!timingSafeEqual(digest(match[1]), digest(expected))) throw new AppError("UNAUTHORIZED", "invalid token");
}

export function archiveKindOfBytes(data: Buffer): ArchiveKind | null {
  if (isGzip(data)) return "tar"; // a .tar.gz
  if (data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return "zip";
  if (data.subarray(257, 262).toString("latin1") === "ustar") return "tar";
  return null;
}

/** Reads a request body up to `limit` bytes; stops reading and fails as soon as it is over. */
export interface BodyReadOptions {
  /** The request's Content-Length, when it said one. */
  declaredLength?: number;
  /** The whole body must have arrived within this many ms: a trickled upload must not hold an import slot. */
  timeoutMs?: number;
}

export async function readBodyCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  { declaredLength, timeoutMs }: BodyReadOptions = {},
): Promise<Buffer> {
  if (!body) throw new AppError("INVALID_INPUT", "empty request body: send one bundle archive (.tar.gz or .zip)");
  if (declaredLength !== undefined && declaredLength > limit) {
    throw new AppError("TOO_LARGE", `request body exceeds ${limit} bytes (STUDIO_BUNDLE_MAX_BYTES)`);
  }
  // With a length said, chunks are copied into one buffer as they come, so the body is held once,
  // not twice (chunks, then their concatenation): a 71 MB upload peaked 131 MiB over the server's
  // RSS that way. Its own memory, so it moves to the import worker without a copy.
  let whole: Buffer | null = declaredLength ? Buffer.allocUnsafeSlow(declaredLength) : null;
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = body.getReader();
  const deadline = timeoutMs === undefined ? null : { at: Date.now() + timeoutMs, ms: timeoutMs };
  for (;;) {
    // A client that drops the connection mid-body is its own problem: a 400, not a logged 500.
    const { done, value } = await readBefore(reader, deadline).catch(async (error: unknown) => {
      if (error instanceof AppError) {
        await reader.cancel().catch(() => undefined);
        throw error;
      }
      throw new AppError("INVALID_INPUT", "the request body was cut off before its end", { cause: error });
    });
    if (done) break;
    if (total + value.byteLength > limit) {
      await reader.cancel();
      throw new AppError("TOO_LARGE", `request body exceeds ${limit} bytes (STUDIO_BUNDLE_MAX_BYTES)`);
    }
    if (whole && total + value.byteLength <= whole.length) whole.set(value, total);
    else {
      // Longer than said: what was filled so far becomes the first chunk.
      if (whole) chunks.push(whole.subarray(0, total));
      whole = null;
      chunks.push(Buffer.from(value));
    }
    total += value.byteLength;
  }
  if (total === 0) throw new AppError("INVALID_INPUT", "empty request body: send one bundle archive (.tar.gz or .zip)");
  return whole ? whole.subarray(0, total) : Buffer.concat(chunks);
}

/** One read, refused once the body's deadline has passed. */
function readBefore(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deadline: { at: number; ms: number } | null,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  if (deadline === null) return reader.read();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AppError(
            "INVALID_INPUT",
            `the request body did not arrive within ${deadline.ms / 1000} s (STUDIO_IMPORT_TIMEOUT_SECONDS)`,
          ),
        ),
      Math.max(0, deadline.at - Date.now()),
    );
  });
  return Promise.race([reader.read(), late]).finally(() => clearTimeout(timer));
}
