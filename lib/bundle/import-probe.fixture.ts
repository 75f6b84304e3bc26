/**
 * HTTP helpers that push archives at POST /api/runs/import, for the e2e tests and
 * `npm run bench:hostile-import`: one upload, timed, and an upload held open mid-body (it keeps
 * its import slot, as a slow client would).
 */
import http from "node:http";

export interface ImportAnswer {
  status: number;
  retryAfter: string | null;
  body: { error?: string; runId?: string; outcome?: string };
  ms: number;
}

export async function postArchive(baseUrl: string, token: string, body: Buffer, name: string): Promise<ImportAnswer> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/runs/import?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/octet-stream" },
    body: new Uint8Array(body),
  });
  const answer = (await response.json()) as ImportAnswer["body"];
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: answer,
    ms: performance.now() - started,
  };
}

export interface HeldUpload {
  /** Settles with the status if the server answers before the body is complete (or on release). */
  answered: Promise<number | null>;
  release(): void;
}

/** Starts a 1 MiB upload, sends its first KiB and waits, until released (the request is dropped). */
export function holdUpload(baseUrl: string, token: string): Promise<HeldUpload> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}/api/runs/import?name=held.tgz`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Length": String(1024 * 1024) },
    });
    const answered = new Promise<number | null>((settle) => {
      request.on("response", (response) => {
        response.resume();
        settle(response.statusCode ?? null);
      });
      request.on("error", () => settle(null));
      request.on("close", () => settle(null));
    });
    request.on("error", reject);
    // A gzip magic number first, so the server takes it for a .tar.gz being sent.
    const head = Buffer.alloc(1024);
    head[0] = 0x1f;
    head[1] = 0x8b;
    request.write(head, () => resolve({ answered, release: () => request.destroy() }));
  });
}
