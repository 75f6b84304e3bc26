/**
 * The judge's response cache: the key names everything that determines the answer (prompt
 * version, provider, model, and the exact request: system, user message, schema, generation settings), so
 * identical requests are answered once. The store is the caller's (the database via db/; a Map in
 * tests); entries that fail validation are treated as misses.
 */
import { createHash } from "node:crypto";
import type { ChatRequest } from "@/lib/llm/chat";
import { canonicalJson } from "@/lib/util/canonical-json";
import { CachedResponseSchema, type CachedResponse, type JudgeCache } from "./schema";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** sha256(promptVersion + provider/model + sha256(rendered input)), the rendered input being the whole request. */
export function judgeCacheKey(promptVersion: string, provider: string, model: string, request: ChatRequest): string {
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
export async function readCache(cache: JudgeCache, key: string): Promise<CachedResponse | null> {
  const value = await cache.get(key);
  if (value === null) return null;
  const parsed = CachedResponseSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
