/**
 * The model gateway over real HTTP (its Unix socket and its loopback port) in front of a stub
 * upstream: only the agent's protocol's generation endpoints go through, with the real key; every
 * other request is refused with 403, logged, and never reaches upstream; every forwarded request
 * counts toward the model-call limit.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelProtocol } from "@/lib/agents/external/types";
import { MAX_REQUEST_BYTES, startModelGateway, type ModelGateway } from "./model-gateway";

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
}

let upstream: http.Server;
let upstreamUrl: string;
const seen: Seen[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-test-"));

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", auth: req.headers["x-api-key"] as string | undefined });
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sends the request target verbatim (Node does not normalize `path`), over the socket or loopback. */
function send(gateway: ModelGateway, method: string, target: string, via: "socket" | "loopback" = "socket") {
  const where =
    via === "socket"
      ? { socketPath: gateway.socketPath }
      : { host: "127.0.0.1", port: Number(new URL(gateway.loopbackUrl).port) };
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ ...where, method, path: target, headers: { "x-api-key": "placeholder" } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(method === "GET" || method === "HEAD" ? undefined : '{"model":"m"}');
  });
}

async function gatewayFor(protocol: ModelProtocol, maxModelCalls = 100) {
  let limits = 0;
  const gateway = await startModelGateway({
    upstream: upstreamUrl,
    protocol,
    auth: { "x-api-key": "the-real-key" },
    socketPath: path.join(dir, `${protocol}-${maxModelCalls}.sock`),
    maxModelCalls,
    onLimit: () => (limits += 1),
  });
  return { gateway, limits: () => limits };
}

const PROBES: [ModelProtocol, string, string][] = [
  ["openai", "POST", "/v1/completions"],
  ["openai", "POST", "/v1/chat/completions/"],
  ["openai", "GET", "/v1/models"],
  ["openai", "POST", "/v1/embeddings"],
  ["openai", "POST", "/v1/files"],
  ["openai", "POST", "/v1/batches"],
  ["openai", "POST", "/v1/responses/resp_1/cancel"],
  ["openai", "POST", "/v1/chat/completions/../../v1/models"],
  ["openai", "POST", "/v1/chat%2Fcompletions"],
  ["openai", "POST", "/v1/%63hat/completions"],
  ["openai", "POST", "/v1//chat/completions"],
  ["openai", "POST", "/v1/./chat/completions"],
  ["openai", "POST", "/v1/chat/completions;x=1"],
  ["openai", "POST", "/V1/chat/completions"],
  ["openai", "POST", "http://127.0.0.1/v1/chat/completions"],
  ["openai", "GET", "/v1/chat/completions"],
  ["anthropic", "POST", "/v1/../v1/messages"],
  ["anthropic", "POST", "/v1/messages/batches"],
  ["anthropic", "POST", "/v1/messages%2F..%2Fmodels"],
  ["anthropic", "HEAD", "/"],
  ["anthropic", "POST", "/v1/chat/completions"],
  ["gemini", "GET", "/v1beta/models"],
  ["gemini", "POST", "/v1beta/models/m:embedContent"],
  ["gemini", "POST", "/v1beta/models/..%2Fm:generateContent"],
  ["gemini", "POST", "/v1beta/tunedModels"],
  ["gemini", "POST", "/v1/models/m:generateContent"],
];

describe("the model gateway", () => {
  it.each(PROBES)("refuses %s %s %s with 403, logs it and never forwards it", async (protocol, method, target) => {
    const { gateway } = await gatewayFor(protocol);
    try {
      const before = seen.length;
      const answer = await send(gateway, method, target);
      expect(answer.status).toBe(403);
      expect(seen.length).toBe(before);
      expect(gateway.calls).toEqual([
        expect.objectContaining({ method, path: target, status: 403, modelCall: false, refused: expect.any(String) }),
      ]);
      expect(gateway.modelCalls()).toBe(0);
    } finally {
      await gateway.close();
    }
  });

  it("forwards each protocol's generation calls with the real key and only the query they use", async () => {
    const cases: [ModelProtocol, string, string][] = [
      ["anthropic", "/v1/messages?beta=true", "/v1/messages?beta=true"],
      ["anthropic", "/v1/messages/count_tokens", "/v1/messages/count_tokens"],
      ["openai", "/v1/chat/completions?api-version=1&x=y", "/v1/chat/completions"],
      ["openai", "/v1/responses", "/v1/responses"],
      [
        "gemini",
        "/v1beta/models/gemini-2.5-flash:generateContent?key=leak",
        "/v1beta/models/gemini-2.5-flash:generateContent",
      ],
      [
        "gemini",
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=leak",
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      ],
    ];
    for (const [protocol, target, forwarded] of cases) {
      const { gateway } = await gatewayFor(protocol);
      try {
        const before = seen.length;
        expect((await send(gateway, "POST", target, "loopback")).status).toBe(200);
        expect(seen.slice(before)).toEqual([{ method: "POST", url: forwarded, auth: "the-real-key" }]);
        expect(gateway.calls).toEqual([expect.objectContaining({ status: 200, modelCall: true })]);
      } finally {
        await gateway.close();
      }
    }
  });

  it("counts every forwarded request toward the limit and refuses past it", async () => {
    const { gateway, limits } = await gatewayFor("anthropic", 2);
    try {
      const before = seen.length;
      const statuses = [];
      for (const target of ["/v1/messages/count_tokens", "/v1/messages", "/v1/models", "/v1/messages"])
        statuses.push((await send(gateway, target === "/v1/models" ? "GET" : "POST", target)).status);
      expect(statuses).toEqual([200, 200, 403, 429]);
      expect(seen.length - before).toBe(2);
      expect(gateway.modelCalls()).toBe(2);
      expect(gateway.limitReached()).toBe(true);
      expect(limits()).toBe(1);
      expect(gateway.calls.map((c) => [c.status, c.modelCall])).toEqual([
        [200, true],
        [200, true],
        [403, false],
        [429, false],
      ]);
    } finally {
      await gateway.close();
    }
  });
  it("refuses a request body over the bound, said in its length or sent chunked, and never forwards it whole", async () => {
    const { gateway } = await gatewayFor("anthropic");
    try {
      const big = Buffer.alloc(MAX_REQUEST_BYTES + 1, 0x20);
      const post = (chunked: boolean) =>
        new Promise<number>((resolve) => {
          const headers = chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(big.length) };
          const req = http.request(
            { socketPath: gateway.socketPath, method: "POST", path: "/v1/messages", headers },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on("error", () => resolve(-1)); // the gateway may cut the upload off before answering
          for (let at = 0; at < big.length; at += 1024 * 1024) req.write(big.subarray(at, at + 1024 * 1024));
          req.end();
        });
      const before = seen.length;
      expect(await post(false)).toBe(413);
      expect(seen.length).toBe(before);
      expect([413, -1]).toContain(await post(true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(gateway.calls.map((c) => [c.status, c.refused])).toEqual([
        [413, "body too large"],
        [413, "body too large"],
      ]);
    } finally {
      await gateway.close();
    }
  });
});
