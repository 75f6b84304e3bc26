import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createStudioClient } from "./studio-client";

/** A studio that answers each request by the next of a script of (status, body, headers). */
let script: { status: number; body: string; headers?: Record<string, string> }[] = [];
const seen: { url: string; auth: string | undefined }[] = [];
const server = http.createServer((req, res) => {
  seen.push({ url: req.url ?? "", auth: req.headers.authorization });
  const next = script.shift() ?? { status: 500, body: '{"error":"script ran out"}' };
  res.writeHead(next.status, { "content-type": "application/json", ...next.headers });
  res.end(next.body);
});
let url = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (attempts = 3) =>
  createStudioClient({ url, token: "t".repeat(16), attempts, backoffMs: 10, timeoutMs: 5000 });
const Answer = z.object({ ok: z.boolean() });

describe("studio client", () => {
  it("sends the token, retries what may pass, honours Retry-After, and reads the answer by its schema", async () => {
    seen.length = 0;
    script = [
      { status: 503, body: '{"error":"busy"}', headers: { "retry-after": "0" } },
      { status: 502, body: "bad gateway" },
      { status: 200, body: '{"ok":true}' },
    ];
    const retries: string[] = [];
    const patient = createStudioClient({
      url,
      token: "t".repeat(16),
      backoffMs: 10,
      onRetry: (_what, attempt, reason) => retries.push(`${attempt}: ${reason}`),
    });
    expect(await patient.getJson("/api/workers/plan?x=1", Answer)).toEqual({ ok: true });
    expect(seen.map((s) => s.url)).toEqual(Array(3).fill("/api/workers/plan?x=1"));
    expect(seen.every((s) => s.auth === `Bearer ${"t".repeat(16)}`)).toBe(true);
    expect(retries).toEqual([
      "1: GET /api/workers/plan?x=1: 503 busy",
      "2: GET /api/workers/plan?x=1: 502 bad gateway",
    ]);
  });

  it("gives up after its attempts, naming the request and the last reason", async () => {
    script = [
      { status: 500, body: '{"error":"database is locked"}' },
      { status: 500, body: '{"error":"database is locked"}' },
    ];
    await expect(client(2).getJson("/a", Answer)).rejects.toThrow(
      "GET /a: 500 database is locked; gave up after 2 attempt(s)",
    );
  });

  it("does not retry a refusal, and says which one", async () => {
    seen.length = 0;
    script = [{ status: 401, body: '{"error":"invalid token"}' }];
    await expect(client().getJson("/b", Answer)).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: "the studio refused GET /b: 401 invalid token",
    });
    script = [{ status: 409, body: '{"error":"run \\"r\\" was already imported from a different bundle"}' }];
    await expect(client().post("/api/runs/import", Buffer.from("zip"), "application/zip")).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(seen).toHaveLength(2);
  });

  it("refuses an answer that is not what was asked for", async () => {
    script = [{ status: 200, body: "<html>" }];
    await expect(client().getJson("/c", Answer)).rejects.toThrow("GET /c: the studio's answer is not JSON");
    script = [{ status: 200, body: '{"ok":"yes"}' }];
    await expect(client().getJson("/c", Answer)).rejects.toThrow("GET /c: unexpected answer at ok:");
    script = [{ status: 200, body: "x".repeat(100) }];
    await expect(client().post("/d", "{}", "application/json", 50)).rejects.toThrow(
      "POST /d: the studio's answer exceeds 50 bytes",
    );
  });

  it("says when nothing answers, and refuses a URL that is not one", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const nobody = createStudioClient({ url: `http://127.0.0.1:${port}`, token: "t", attempts: 2, backoffMs: 1 });
    await expect(nobody.getJson("/e", Answer)).rejects.toThrow(
      new RegExp(
        `^GET /e: the studio at http://127\\.0\\.0\\.1:${port} did not answer \\(.*ECONNREFUSED.*\\); gave up after 2 attempt\\(s\\)$`,
      ),
    );
    expect(() => createStudioClient({ url: "studio:3000", token: "t" })).toThrow(
      'studio URL "studio:3000": expected http:// or https://',
    );
    expect(() => createStudioClient({ url: "not a url", token: "t" })).toThrow('studio URL "not a url" is not a URL');
  });
});
