/**
 * The response cache of the model calls whose answer is data (judges, the Code-KIT selector): the key names everything that determines the answer (prompt
 * version, provider, model, and the exact request: system, user message, schema, generation settings), so
 * identical requests are answered once. The store is the caller's (the database via db/; a Map in
 * tests); entries that fail validation are treated as misses.
 */
import { createHash } from "node:crypto";
import type { ChatRequest } from "@/lib/llm/chat";
import { canonicalJson } from "@/lib/util/canonical-json";
import { z } from "zod";

/** A model's answer as the cache keeps it: the response as it came, so a cache hit yields the same verdict or selection. */
export const CachedResponseSchema = z
  .object({
    /** The model's text (the JSON document, unparsed). */
    text: z.string(),
    inputTokens: z.number().int().min(0),
    /** Billed output tokens, thinking included. */
    outputTokens: z.number().int().min(0),
    /** The model that answered, as the provider reports it. */
    model: z.string(),
    latencyMs: z.number().min(0),
    /** Why generation stopped (`STOP`, `MAX_TOKENS`, `max_tokens`, `length`, ...), where the provider says. */
    finishReason: z.string().optional(),
  })
  .strict();
export type CachedResponse = z.infer<typeof CachedResponseSchema>;

export interface ResponseCache {
  get(key: string): Promise<CachedResponse | null>;
  set(key: string, value: CachedResponse): Promise<void>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** sha256(promptVersion + provider/model + sha256(rendered input)), the rendered input being the whole request. */
export function responseCacheKey(promptVersion: string, provider: string, model: string, request: ChatRequest): string {
  const rendered = canonicalJson({
    system: request.system,
    messages: request.messages,
    responseJsonSchema: request.responseJsonSchema ?? null,
    temperature: request.temperature ?? null,
    maxOutputTokens: request.maxOutputTokens ?? null,
  });
  return sha256(`${promptVersion}\n${provider}/${model}\n${sha256(rendered)}`);
}

/** Reads an entry defensively: a corrupt or outdated entry is a miss, not a crash. */
export async function readCache(cache: ResponseCache, key: string): Promise<CachedResponse | null> {
  const value = await cache.get(key);
  if (value === null) return null;
  const parsed = CachedResponseSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
