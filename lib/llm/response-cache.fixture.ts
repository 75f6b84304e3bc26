import type { CachedResponse, ResponseCache } from "@/lib/llm/response-cache";

/** A response cache in a Map, for tests; the studio's cache is the database (db/queries/judge-cache.ts). */
export function createMemoryResponseCache(): ResponseCache & { readonly size: number } {
  const entries = new Map<string, CachedResponse>();
  return {
    get: async (key) => entries.get(key) ?? null,
    set: async (key, value) => {
      entries.set(key, value);
    },
    get size() {
      return entries.size;
    },
  };
}
