/**
 * The only way out of an external agent's sandbox: an HTTP reverse proxy to the model provider.
 * It listens on a Unix socket (bound into the sandbox, where a small forwarder exposes it on the
 * sandbox's own loopback; the sandbox has no other network) and on host loopback (for runs
 * without bubblewrap). Every request goes to `upstream` with the agent's credentials replaced by
 * the real ones, so the agent never holds the key; each call is recorded (path, status, latency,
 * bytes), and past `maxModelCalls` requests are refused and `onLimit` fires.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";

export interface GatewayCall {
  method: string;
  path: string;
  status: number;
  startedAt: string;
  durationMs: number;
  requestBytes: number;
  responseBytes: number;
  /** Counted toward the model-call limit (a generation request, not a token count or a model list). */
  modelCall: boolean;
}

export interface ModelGatewayOptions {
  /** Base URL requests are forwarded to, e.g. `http://127.0.0.1:4321` or `https://api.anthropic.com`. */
  upstream: string;
  /** Headers set on every forwarded request (the real credentials); the agent's own auth headers are dropped. */
  auth: Record<string, string>;
  socketPath: string;
  maxModelCalls?: number;
  onLimit?: () => void;
}

export interface ModelGateway {
  socketPath: string;
  /** `http://127.0.0.1:PORT` on the host. */
  loopbackUrl: string;
  calls: GatewayCall[];
  modelCalls(): number;
  limitReached(): boolean;
  close(): Promise<void>;
}

const DROPPED_HEADERS = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "authorization",
  "x-api-key",
  "x-goog-api-key",
  "api-key",
]);

/** Generation endpoints of the four protocols (Gemini, OpenAI chat and Responses, Anthropic). */
const MODEL_CALL = /(:generateContent|:streamGenerateContent|\/chat\/completions|\/responses|\/messages)$/;

export function isModelCall(method: string, pathname: string): boolean {
  return method === "POST" && MODEL_CALL.test(pathname);
}

function joinUrl(base: string, requestPath: string): URL {
  const url = new URL(base);
  const incoming = new URL(requestPath, "http://gateway");
  // `key=` in the query is Gemini's other way to pass a key: never forwarded.
  incoming.searchParams.delete("key");
  url.pathname = `${url.pathname.replace(/\/$/, "")}${incoming.pathname}`;
  url.search = incoming.search;
  return url;
}

export async function startModelGateway(options: ModelGatewayOptions): Promise<ModelGateway> {
  const calls: GatewayCall[] = [];
  let modelCalls = 0;
  let limitHit = false;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const method = req.method ?? "GET";
    const target = joinUrl(options.upstream, req.url ?? "/");
    const modelCall = isModelCall(method, target.pathname);
    const record = (status: number, requestBytes: number, responseBytes: number) =>
      calls.push({
        method,
        path: target.pathname,
        status,
        startedAt,
        durationMs: Math.round(performance.now() - started),
        requestBytes,
        responseBytes,
        modelCall,
      });
    if (modelCall && options.maxModelCalls !== undefined && modelCalls >= options.maxModelCalls) {
      if (!limitHit) {
        limitHit = true;
        options.onLimit?.();
      }
      const body = JSON.stringify({
        error: { type: "step_limit", message: `model-call limit of ${options.maxModelCalls} reached` },
      });
      res.writeHead(429, { "content-type": "application/json", connection: "close" }).end(body);
      record(429, 0, body.length);
      req.resume();
      return;
    }
    if (modelCall) modelCalls += 1;
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!DROPPED_HEADERS.has(name) && value !== undefined) headers[name] = value;
    }
    Object.assign(headers, options.auth);
    let requestBytes = 0;
    let responseBytes = 0;
    const client = target.protocol === "https:" ? https : http;
    const upstream = client.request(target, { method, headers }, (answer) => {
      const status = answer.statusCode ?? 502;
      const out: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!["connection", "keep-alive", "transfer-encoding"].includes(name) && value !== undefined) out[name] = value;
      }
      // The agent CLIs wait on a kept-alive SSE stream: close after each answer (SOURCES.md).
      out.connection = "close";
      res.writeHead(status, out);
      answer.on("data", (chunk: Buffer) => (responseBytes += chunk.length));
      answer.pipe(res);
      answer.on("end", () => record(status, requestBytes, responseBytes));
    });
    upstream.on("error", (error) => {
      if (!res.headersSent) {
        res
          .writeHead(502, { "content-type": "application/json", connection: "close" })
          .end(JSON.stringify({ error: { message: `model gateway: upstream failed: ${error.message}` } }));
      } else res.destroy();
      record(502, requestBytes, 0);
    });
    req.on("data", (chunk: Buffer) => (requestBytes += chunk.length));
    req.pipe(upstream);
    res.on("close", () => upstream.destroy());
  };

  const socketServer = http.createServer(handle);
  const loopbackServer = http.createServer(handle);
  await fs.rm(options.socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    socketServer.once("error", reject);
    socketServer.listen(options.socketPath, () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    loopbackServer.once("error", reject);
    loopbackServer.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = loopbackServer.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  const closeServer = (server: http.Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    socketPath: options.socketPath,
    loopbackUrl: `http://127.0.0.1:${port}`,
    calls,
    modelCalls: () => modelCalls,
    limitReached: () => limitHit,
    close: () => {
      closing ??= Promise.all([closeServer(socketServer), closeServer(loopbackServer)]).then(() =>
        fs.rm(options.socketPath, { force: true }),
      );
      return closing;
    },
  };
}

/**
 * The forwarder run inside the sandbox (plain Node, CommonJS): listens on 127.0.0.1:PORT of the
 * sandbox's own network namespace and pipes each connection to the gateway's socket; touches
 * READY_FILE once listening. Arguments: PORT SOCKET READY_FILE.
 */
export const FORWARDER_SOURCE = `"use strict";
const net = require("node:net");
const fs = require("node:fs");
const [port, socket, ready] = process.argv.slice(2);
net
  .createServer((client) => {
    const upstream = net.connect(socket);
    client.pipe(upstream).pipe(client);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  })
  .listen(Number(port), "127.0.0.1", () => fs.writeFileSync(ready, ""));
`;
