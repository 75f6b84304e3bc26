/**
 * The only way out of an external agent's sandbox: an HTTP reverse proxy to the model provider.
 * It listens on a Unix socket (bound into the sandbox, where a small forwarder exposes it on the
 * sandbox's own loopback; the sandbox has no other network) and on host loopback (for runs
 * without bubblewrap). Only the generation endpoints of the agent's protocol are forwarded
 * (gateway-routes.ts); anything else is answered 403 and never reaches upstream. A forwarded
 * request goes to `upstream` with the agent's credentials replaced by the real ones, so the agent
 * never holds the key, and counts toward `maxModelCalls`: past it requests are refused (429) and
 * `onLimit` fires. Every request is recorded (path, status, latency, bytes), refused ones too.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { ModelProtocol } from "@/lib/agents/external/types";
import { routeRequest } from "./gateway-routes";

export interface GatewayCall {
  method: string;
  /** The path forwarded, or the request target as sent when refused (cut at 1,000 characters). */
  path: string;
  status: number;
  startedAt: string;
  durationMs: number;
  requestBytes: number;
  responseBytes: number;
  /** Forwarded, so counted toward the model-call limit. */
  modelCall: boolean;
  /** Why the gateway refused it (403), when it did. */
  refused?: string;
}

export interface ModelGatewayOptions {
  /** Base URL requests are forwarded to, e.g. `http://127.0.0.1:4321` or `https://api.anthropic.com`. */
  upstream: string;
  /** The agent's protocol: only its endpoints are forwarded. */
  protocol: ModelProtocol;
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
  /** Requests forwarded (each counts toward the limit). */
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

/**
 * The largest request body forwarded: a full 1M-token context is about 4 MiB of JSON, images
 * included rarely more; past this the call is refused (413) and never reaches upstream whole.
 */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** Refused requests logged at most (an agent looping on a refused call must not fill memory). */
const MAX_REFUSED_LOGGED = 1000;

function upstreamUrl(base: string, requestPath: string, search: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/$/, "")}${requestPath}`;
  url.search = search;
  return url;
}

export async function startModelGateway(options: ModelGatewayOptions): Promise<ModelGateway> {
  const calls: GatewayCall[] = [];
  let modelCalls = 0;
  let limitHit = false;
  let refusedLogged = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const method = req.method ?? "GET";
    const route = routeRequest(options.protocol, method, req.url ?? "");
    const record = (call: Pick<GatewayCall, "status" | "requestBytes" | "responseBytes"> & Partial<GatewayCall>) =>
      calls.push({
        method,
        path: route.allowed ? route.path : (req.url ?? "").slice(0, 1000),
        startedAt,
        durationMs: Math.round(performance.now() - started),
        modelCall: route.allowed,
        ...call,
      });
    const refuse = (status: number, type: string, message: string) => {
      const body = JSON.stringify({ error: { type, message } });
      res.writeHead(status, { "content-type": "application/json", connection: "close" }).end(body);
      req.resume();
      return body.length;
    };
    if (!route.allowed) {
      const sent = refuse(403, "forbidden", `model gateway: ${method} ${req.url ?? ""} refused: ${route.reason}`);
      if (refusedLogged++ < MAX_REFUSED_LOGGED)
        record({ status: 403, requestBytes: 0, responseBytes: sent, refused: route.reason });
      return;
    }
    if (options.maxModelCalls !== undefined && modelCalls >= options.maxModelCalls) {
      if (!limitHit) {
        limitHit = true;
        options.onLimit?.();
      }
      const sent = refuse(429, "step_limit", `model-call limit of ${options.maxModelCalls} reached`);
      record({ status: 429, requestBytes: 0, responseBytes: sent, modelCall: false });
      return;
    }
    if (Number(req.headers["content-length"] ?? 0) > MAX_REQUEST_BYTES) {
      const sent = refuse(413, "too_large", `model gateway: request body over ${MAX_REQUEST_BYTES} bytes`);
      record({ status: 413, requestBytes: 0, responseBytes: sent, modelCall: false, refused: "body too large" });
      return;
    }
    modelCalls += 1;
    const target = upstreamUrl(options.upstream, route.path, route.search);
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
      answer.on("end", () => record({ status, requestBytes, responseBytes }));
    });
    let tooLarge = false;
    upstream.on("error", (error) => {
      if (tooLarge) return void record({ status: 413, requestBytes, responseBytes: 0, refused: "body too large" });
      if (!res.headersSent) {
        res
          .writeHead(502, { "content-type": "application/json", connection: "close" })
          .end(JSON.stringify({ error: { message: `model gateway: upstream failed: ${error.message}` } }));
      } else res.destroy();
      record({ status: 502, requestBytes, responseBytes: 0 });
    });
    req.on("data", (chunk: Buffer) => {
      requestBytes += chunk.length;
      if (requestBytes <= MAX_REQUEST_BYTES) return;
      // A chunked body with no length said: cut it off here, upstream gets no complete request.
      if (tooLarge) return;
      tooLarge = true;
      req.unpipe(upstream);
      upstream.destroy();
      if (!res.headersSent) {
        res
          .writeHead(413, { "content-type": "application/json", connection: "close" })
          .end(JSON.stringify({ error: { message: `model gateway: request body over ${MAX_REQUEST_BYTES} bytes` } }));
      }
      req.destroy();
    });
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
