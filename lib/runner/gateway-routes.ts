/**
 * What the model gateway forwards: exactly the generation endpoints of the agent's protocol, as
 * the three real CLIs and the SDKs call them (Claude Code: `POST /v1/messages?beta=true`; Codex:
 * `POST /v1/responses`; Gemini CLI: `POST /v1beta/models/M:streamGenerateContent?alt=sse`; the
 * contract's OpenAI agents: `POST /v1/chat/completions`). The path is matched as sent, byte for
 * byte: no decoding, so `%2e%2e`, `//`, `/./`, `..`, a trailing `/` or a `;` never match; only
 * the query parameters an endpoint uses are forwarded. Anything else is refused (403): a model
 * list, a file upload, a fine-tuning job or a batch would spend the real key outside the run's
 * model-call budget.
 */
import type { ModelProtocol } from "@/lib/agents/external/types";

interface Endpoint {
  path: RegExp;
  /** Query parameters forwarded (others are dropped, `key` above all). */
  query: string[];
}

const GEMINI_MODEL = "[A-Za-z0-9][A-Za-z0-9._-]{0,127}";

export const GATEWAY_ENDPOINTS: Record<ModelProtocol, Endpoint[]> = {
  anthropic: [
    { path: /^\/v1\/messages$/, query: ["beta"] },
    { path: /^\/v1\/messages\/count_tokens$/, query: ["beta"] },
  ],
  openai: [
    { path: /^\/v1\/chat\/completions$/, query: [] },
    { path: /^\/v1\/responses$/, query: [] },
  ],
  gemini: [
    {
      path: new RegExp(`^/v1beta/models/${GEMINI_MODEL}:(generateContent|streamGenerateContent|countTokens)$`),
      query: ["alt"],
    },
  ],
};

/** A forwarded query value: short and plain (`sse`, `true`). */
const QUERY_VALUE = /^[A-Za-z0-9_-]{1,32}$/;
/** A path as sent, before matching: nothing that could be decoded or normalized into another one. */
const PLAIN_PATH = /^\/[A-Za-z0-9._:/-]*$/;

export type GatewayRoute = { allowed: true; path: string; search: string } | { allowed: false; reason: string };

/** Whether the request may go upstream, and as what path and query. */
export function routeRequest(protocol: ModelProtocol, method: string, target: string): GatewayRoute {
  if (method !== "POST") return { allowed: false, reason: `${method} is not a model call` };
  const queryAt = target.indexOf("?");
  const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
  if (!PLAIN_PATH.test(rawPath))
    return { allowed: false, reason: "the path is not plain (encoded, relative or odd characters)" };
  const endpoint = GATEWAY_ENDPOINTS[protocol].find((e) => e.path.test(rawPath));
  if (!endpoint) return { allowed: false, reason: `not an endpoint of the ${protocol} protocol` };
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(queryAt === -1 ? "" : target.slice(queryAt + 1))) {
    if (endpoint.query.includes(name) && QUERY_VALUE.test(value) && !kept.has(name)) kept.set(name, value);
  }
  const search = kept.toString();
  return { allowed: true, path: rawPath, search: search ? `?${search}` : "" };
}
