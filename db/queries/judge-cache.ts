import { eq } from "drizzle-orm";
import type { CachedResponse, ResponseCache } from "@/lib/llm/response-cache";
import type { Db } from "../client";
import * as t from "../schema";

/** The response cache in the database (LLM judges, the Code-KIT selector): identical requests are answered once, ever. */
export function createDbJudgeCache(db: Db): ResponseCache {
  return {
    async get(key) {
      const row = db
        .select({ response: t.judgeCache.response })
        .from(t.judgeCache)
        .where(eq(t.judgeCache.key, key))
        .get();
      if (!row) return null;
      try {
        return JSON.parse(row.response) as CachedResponse;
      } catch {
        return null; // a corrupt entry is a miss; the judge validates what it reads
      }
    },
    async set(key, value) {
      db.insert(t.judgeCache)
        .values({
          key,
          response: JSON.stringify(value),
          inputTokens: value.inputTokens,
          outputTokens: value.outputTokens,
        })
        .onConflictDoUpdate({ target: t.judgeCache.key, set: { response: JSON.stringify(value) } })
        .run();
    },
  };
}
