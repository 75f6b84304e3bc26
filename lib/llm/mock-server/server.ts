/**
 * One local model server speaking four wire protocols, answering every request from a script:
 *
 * - Gemini     `POST /v1beta/models/{m}:generateContent`, `:streamGenerateContent?alt=sse`, `:countTokens`
 * - OpenAI     `POST /v1/chat/completions` and `POST /v1/responses` (each JSON or SSE)
 * - Anthropic  `POST /v1/messages` (JSON or SSE), `POST /v1/messages/count_tokens`
 *
 * Clients point at `url` (Gemini, Anthropic) or `${url}/v1` (OpenAI). Binds 127.0.0.1 on a random
 * free port. Answers always report the model `mock-model`.
 */
import { type IncomingMessage, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { listenOnLoopback } from "@/lib/util/loopback-server";
import type { ProtocolAdapter, RouteInfo } from "./adapter";
import { anthropicAdapter } from "./anthropic";
import { geminiAdapter } from "./gemini";
import { openAiChatAdapter } from "./openai-chat";
import { openAiResponsesAdapter } from "./openai-responses";
import {
  conversationTokens,
  MOCK_MODEL,
  turnTokens,
  type MockConversation,
  type MockProtocol,
  type MockScript,
} from "./script";
import { readJsonBody } from "./wire";

export interface MockModelServerOptions {
  script: MockScript;
  /** The key clients must send (`x-goog-api-key`, `x-api-key` or `Authorization: Bearer`); unset = any. */
  apiKey?: string;
}

/** One model request as it arrived, with the conversation the script saw. */
export interface MockModelRequest {
  protocol: MockProtocol;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  conversation: MockConversation;
}

export interface MockModelServer {
  /** e.g. `http://127.0.0.1:43121`; OpenAI clients use `${url}/v1`. */
  url: string;
  /** Every model request that reached the script, in arrival order. */
  requests: MockModelRequest[];
  /** Requests being answered right now, and the most at any one time. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Stops the server, dropping open connections (idempotent). */
  close(): Promise<void>;
}

interface Route {
  adapter: ProtocolAdapter;
  info: RouteInfo;
  countTokens: boolean;
}

const GEMINI_PATH = /^\/v1beta\/models\/([A-Za-z0-9._-]+):(generateContent|streamGenerateContent|countTokens)$/;

function routeOf(url: URL): Route | null {
  const gemini = GEMINI_PATH.exec(url.pathname);
  if (gemini) {
    const [, model = "", method] = gemini;
    const info = { model, stream: method === "streamGenerateContent", sse: url.searchParams.get("alt") === "sse" };
    return { adapter: geminiAdapter, info, countTokens: method === "countTokens" };
  }
  const fixed: Record<string, Route> = {
    "/v1/chat/completions": { adapter: openAiChatAdapter, info: {}, countTokens: false },
    "/v1/responses": { adapter: openAiResponsesAdapter, info: {}, countTokens: false },
    "/v1/messages": { adapter: anthropicAdapter, info: {}, countTokens: false },
    "/v1/messages/count_tokens": { adapter: anthropicAdapter, info: {}, countTokens: true },
  };
  return fixed[url.pathname] ?? null;
}

function keyOf(req: IncomingMessage, url: URL): string {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const bearer = header("authorization")?.replace(/^Bearer\s+/i, "");
  return header("x-goog-api-key") ?? header("x-api-key") ?? bearer ?? url.searchParams.get("key") ?? "";
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startMockModelServer(options: MockModelServerOptions): Promise<MockModelServer> {
  const requests: MockModelRequest[] = [];
  let serial = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const route = routeOf(url);
    if (!route) return geminiAdapter.sendError(res, 404, `no mock endpoint at ${req.method} ${url.pathname}`);
    const { adapter } = route;
    if (req.method !== "POST") return adapter.sendError(res, 405, `${req.method} is not supported on ${url.pathname}`);
    if (options.apiKey !== undefined && keyOf(req, url) !== options.apiKey) {
      return adapter.sendError(res, 401, "invalid API key");
    }
    const body = await readJsonBody(req);
    if (!body.ok) return adapter.sendError(res, 400, "the request body is not JSON (or exceeds 20 MB)");
    const parsed = adapter.parse(body.value, route.info);
    if ("invalid" in parsed) return adapter.sendError(res, 400, parsed.invalid);
    const { conversation } = parsed;
    if (route.countTokens && adapter.countTokensBody) {
      const answer = JSON.stringify(adapter.countTokensBody(conversationTokens(conversation)));
      res.writeHead(200, { "Content-Type": "application/json" }).end(answer);
      return;
    }

    requests.push({
      protocol: adapter.protocol,
      path: url.pathname,
      headers: req.headers,
      body: body.value,
      conversation,
    });
    let clientGone = false;
    res.on("close", () => (clientGone = true));
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      let turn;
      try {
        turn = await options.script(conversation);
      } catch (error) {
        return adapter.sendError(
          res,
          500,
          `mock script failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (turn.delayMs) await sleep(turn.delayMs);
      if (clientGone) return; // the client gave up (its timeout) while the script waited
      if (turn.error)
        return adapter.sendError(res, turn.error.status, turn.error.message ?? `scripted HTTP ${turn.error.status}`);
      parsed.reply(res, {
        text: turn.text ?? "",
        toolCalls: turn.toolCalls ?? [],
        inputTokens: conversationTokens(conversation),
        outputTokens: turnTokens(turn),
        serial: ++serial,
        model: turn.model ?? MOCK_MODEL,
        finishReason: turn.finishReason ?? null,
      });
    } finally {
      inFlight--;
    }
  }

  const listener = await listenOnLoopback((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = `mock server failed: ${error instanceof Error ? error.message : String(error)}`;
      if (!res.headersSent) geminiAdapter.sendError(res, 500, message);
      else res.destroy();
    });
  });

  return {
    url: listener.url,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: listener.close,
  };
}
