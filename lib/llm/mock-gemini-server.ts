/**
 * A local stand-in for the Gemini API (generativelanguage.googleapis.com, v1beta) that speaks its
 * real REST protocol, so tests and the offline demo drive the real `@google/genai` SDK:
 *
 * - `POST /v1beta/models/{model}:generateContent` -> GenerateContentResponse JSON
 * - `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` -> `data: {...}\n\n` chunks
 *   (without `alt=sse`: one JSON array of the chunks, as the real API does)
 * - API key in `x-goog-api-key` (or `?key=`): missing -> 403 PERMISSION_DENIED, wrong -> 400
 * - errors as `{ error: { code, message, status } }` with Google's status names
 *
 * Token counts are estimates (~4 characters per token). Binds 127.0.0.1 on a random free port.
 */
import { type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback } from "@/lib/util/loopback-server";
import { z } from "zod";

const PartSchema = z.looseObject({ text: z.string().optional() });
const ContentSchema = z.looseObject({ role: z.string().optional(), parts: z.array(PartSchema) });

/** The request body as the SDK sends it (fields the mock does not read pass through untouched). */
export const GeminiRequestBodySchema = z.looseObject({
  contents: z.array(ContentSchema).min(1),
  systemInstruction: ContentSchema.optional(),
  generationConfig: z
    .looseObject({
      responseMimeType: z.string().optional(),
      responseJsonSchema: z.unknown().optional(),
      responseSchema: z.unknown().optional(),
      temperature: z.number().optional(),
      maxOutputTokens: z.number().optional(),
    })
    .optional(),
});
export type GeminiRequestBody = z.infer<typeof GeminiRequestBodySchema>;

export interface MockGeminiRequest {
  model: string;
  method: "generateContent" | "streamGenerateContent";
  body: GeminiRequestBody;
  /** The text of every part of `contents`, joined by newlines. */
  prompt: string;
  /** The text of `systemInstruction`, or "". */
  system: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface MockReply {
  /** The model's text; for an error status, the error message. */
  text?: string;
  /** An HTTP error status (400, 429, 500, 503, ...) to answer with instead of content. */
  status?: number;
  /** Wait this long before answering (the request counts as in flight meanwhile). */
  delayMs?: number;
  finishReason?: string;
  /** Reported as `modelVersion`; defaults to the requested model. */
  modelVersion?: string;
}

export type MockResponder = (request: MockGeminiRequest) => string | MockReply | Promise<string | MockReply>;

export interface MockGeminiServerOptions {
  respond: MockResponder;
  /** The key clients must send; unset = any non-empty key is accepted. */
  apiKey?: string;
}

export interface MockGeminiServer {
  /** Base URL for `httpOptions.baseUrl`, e.g. `http://127.0.0.1:43121`. */
  url: string;
  /** Every request that reached a model endpoint with a valid key, in arrival order. */
  requests: MockGeminiRequest[];
  /** Requests being answered right now, and the most at any one time. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Stops the server (idempotent). */
  close(): Promise<void>;
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  408: "DEADLINE_EXCEEDED",
  409: "ABORTED",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  501: "NOT_IMPLEMENTED",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

const DEFAULT_MESSAGES: Record<number, string> = {
  429: "Resource has been exhausted (e.g. check quota).",
  500: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  503: "The model is overloaded. Please try again later.",
};

const MAX_BODY_BYTES = 20 * 1024 * 1024;
const PATH = /^\/v1beta\/models\/([A-Za-z0-9._-]+):(generateContent|streamGenerateContent)$/;

export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=UTF-8",
    "Content-Length": Buffer.byteLength(text),
    ...extraHeaders,
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, details?: unknown[]): void {
  const error = { code: status, message, status: STATUS_NAMES[status] ?? (status >= 500 ? "INTERNAL" : "UNKNOWN") };
  sendJson(res, status, { error: details ? { ...error, details } : error });
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const textOf = (content: z.infer<typeof ContentSchema> | undefined) =>
  (content?.parts ?? []).flatMap((p) => (p.text === undefined ? [] : [p.text])).join("\n");

interface Usage {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  totalTokenCount: number;
  promptTokensDetails: { modality: "TEXT"; tokenCount: number }[];
}

function usage(promptTokens: number, candidateTokens: number | null): Usage {
  return {
    promptTokenCount: promptTokens,
    ...(candidateTokens === null ? {} : { candidatesTokenCount: candidateTokens }),
    totalTokenCount: promptTokens + (candidateTokens ?? 0),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: promptTokens }],
  };
}

/** One GenerateContentResponse (a whole answer, or one streamed chunk of it). */
function responseBody(opts: {
  text: string;
  finishReason: string | null;
  usage: Usage;
  modelVersion: string;
  responseId: string;
}) {
  return {
    candidates: [
      {
        content: { parts: [{ text: opts.text }], role: "model" },
        ...(opts.finishReason ? { finishReason: opts.finishReason } : {}),
        index: 0,
      },
    ],
    usageMetadata: opts.usage,
    modelVersion: opts.modelVersion,
    responseId: opts.responseId,
  };
}

/** Splits a text into up to three chunks, as a streamed answer arrives. */
function chunksOf(text: string): string[] {
  if (text.length < 3) return [text];
  const size = Math.ceil(text.length / 3);
  return [text.slice(0, size), text.slice(size, 2 * size), text.slice(2 * size)].filter((c) => c.length > 0);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startMockGeminiServer(options: MockGeminiServerOptions): Promise<MockGeminiServer> {
  const requests: MockGeminiRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let responseCounter = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = PATH.exec(url.pathname);
    if (!match) return sendError(res, 404, `Method not found: ${url.pathname}`);
    if (req.method !== "POST") return sendError(res, 404, `${req.method} is not supported on ${url.pathname}`);
    const [, model = "", method = ""] = match;

    const headerKey = req.headers["x-goog-api-key"];
    const key = (Array.isArray(headerKey) ? headerKey[0] : headerKey) ?? url.searchParams.get("key") ?? "";
    if (key === "") {
      return sendError(
        res,
        403,
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      );
    }
    if (options.apiKey !== undefined && key !== options.apiKey) {
      return sendError(res, 400, "API key not valid. Please pass a valid API key.", [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" },
      ]);
    }

    const raw = await readBody(req);
    if (raw === null) return sendError(res, 400, "Request payload size exceeds the limit: 20971520 bytes.");
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return sendError(res, 400, `Invalid JSON payload received. Unexpected token.\n${raw.slice(0, 80)}`);
    }
    const parsed = GeminiRequestBodySchema.safeParse(json);
    if (!parsed.success) {
      return sendError(res, 400, `Invalid JSON payload received. ${parsed.error.issues[0]?.message ?? ""}`.trim());
    }

    const request: MockGeminiRequest = {
      model,
      method: method as MockGeminiRequest["method"],
      body: parsed.data,
      prompt: parsed.data.contents.map(textOf).join("\n"),
      system: textOf(parsed.data.systemInstruction),
      headers: req.headers,
    };
    requests.push(request);

    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      let reply: MockReply;
      try {
        const answer = await options.respond(request);
        reply = typeof answer === "string" ? { text: answer } : answer;
      } catch (error) {
        return sendError(res, 500, `mock responder failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (reply.delayMs) await sleep(reply.delayMs);
      if (reply.status !== undefined && reply.status >= 400) {
        return sendError(res, reply.status, reply.text ?? DEFAULT_MESSAGES[reply.status] ?? "Request failed.");
      }

      const text = reply.text ?? "";
      const promptTokens = estimateTokens(request.system) + estimateTokens(request.prompt);
      const outputTokens = estimateTokens(text);
      const modelVersion = reply.modelVersion ?? model;
      const responseId = `mock-${++responseCounter}`;
      const finishReason = reply.finishReason ?? "STOP";

      if (method === "generateContent") {
        return sendJson(
          res,
          200,
          responseBody({ text, finishReason, usage: usage(promptTokens, outputTokens), modelVersion, responseId }),
        );
      }
      const pieces = chunksOf(text);
      const chunks = pieces.map((piece, i) => {
        const last = i === pieces.length - 1;
        return responseBody({
          text: piece,
          finishReason: last ? finishReason : null,
          usage: usage(promptTokens, last ? outputTokens : null),
          modelVersion,
          responseId,
        });
      });
      if (url.searchParams.get("alt") !== "sse") return sendJson(res, 200, chunks);
      res.writeHead(200, {
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-cache",
        Connection: "close",
      });
      for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end();
    } finally {
      inFlight--;
    }
  }

  const listener = await listenOnLoopback((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, error instanceof Error ? error.message : String(error));
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
