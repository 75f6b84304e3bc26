/**
 * What each wire protocol of the mock server provides: parsing a request into the neutral
 * conversation, and writing a scripted turn back (JSON or SSE) or an error, in that protocol's shape.
 */
import type { ServerResponse } from "node:http";
import { z } from "zod";
import type { MockConversation, MockProtocol, ScriptedToolCall } from "./script";

/** A scripted turn ready to send: defaults filled in, tokens counted, a serial number for ids. */
export interface ResolvedTurn {
  text: string;
  toolCalls: ScriptedToolCall[];
  inputTokens: number;
  outputTokens: number;
  serial: number;
  /** The model to report. */
  model: string;
  /** A scripted stop reason, or null for the protocol's normal one. */
  finishReason: string | null;
}

export interface ParsedRequest {
  conversation: MockConversation;
  reply(res: ServerResponse, turn: ResolvedTurn): void;
}

/** What the URL says: Gemini puts the model and streaming in the path, the others in the body. */
export interface RouteInfo {
  model?: string;
  stream?: boolean;
  /** Gemini streaming: `?alt=sse` (SSE) or not (one JSON array of chunks). */
  sse?: boolean;
}

export interface ProtocolAdapter {
  protocol: MockProtocol;
  /** A parsed request, or the message of a 400 answer. */
  parse(body: unknown, route: RouteInfo): ParsedRequest | { invalid: string };
  sendError(res: ServerResponse, status: number, message: string): void;
  /** The token-count endpoint's answer, when the protocol has one. */
  countTokensBody?(tokens: number): unknown;
}

/** Message content as text: a string, or the `text` of an array of content parts. */
export const ContentSchema = z
  .union([z.string(), z.array(z.looseObject({ type: z.string().optional(), text: z.string().optional() }))])
  .nullish();

export function textOf(content: z.infer<typeof ContentSchema>): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content.flatMap((part) => (typeof part.text === "string" ? [part.text] : [])).join("\n");
}
