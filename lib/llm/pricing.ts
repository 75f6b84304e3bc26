/**
 * Token prices per model (USD per 1M tokens) and the cost of one call. Defaults are the vendors'
 * published standard text prices (Google paid tier for prompts up to 200k tokens, thinking billed as
 * output; Anthropic and OpenAI list prices; DeepSeek's cache-miss input price), as of late 2025;
 * pass your own table to override or extend them.
 */
import type { ModelPrice, PriceTable } from "./schema";

export const DEFAULT_PRICES: PriceTable = {
  "gemini-2.5-flash": { inputPerMillion: 0.3, outputPerMillion: 2.5 },
  "gemini-2.5-flash-lite": { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  "gemini-2.5-pro": { inputPerMillion: 1.25, outputPerMillion: 10 },
  "gemini-3-flash": { inputPerMillion: 0.5, outputPerMillion: 3 },
  "gemini-3-pro": { inputPerMillion: 2, outputPerMillion: 12 },
  "claude-haiku-4-5": { inputPerMillion: 1, outputPerMillion: 5 },
  "claude-sonnet-4-5": { inputPerMillion: 3, outputPerMillion: 15 },
  "claude-opus-4-5": { inputPerMillion: 5, outputPerMillion: 25 },
  "gpt-5": { inputPerMillion: 1.25, outputPerMillion: 10 },
  "gpt-5-mini": { inputPerMillion: 0.25, outputPerMillion: 2 },
  "gpt-4.1": { inputPerMillion: 2, outputPerMillion: 8 },
  "deepseek-chat": { inputPerMillion: 0.28, outputPerMillion: 0.42 },
  "deepseek-reasoner": { inputPerMillion: 0.28, outputPerMillion: 0.42 },
  // The scripted mocks of the offline demo cost nothing, and say so.
  "mock-gemini": { inputPerMillion: 0, outputPerMillion: 0 },
  "mock-anthropic": { inputPerMillion: 0, outputPerMillion: 0 },
  "mock-openai": { inputPerMillion: 0, outputPerMillion: 0 },
  "mock-model": { inputPerMillion: 0, outputPerMillion: 0 },
};

/**
 * The price of a model: an exact entry, else the longest entry the name starts with
 * (`gemini-2.5-flash-preview-09-2025` is priced as `gemini-2.5-flash`), else null (unknown).
 * `models/` prefixes are ignored.
 */
export function priceOf(table: PriceTable, model: string): ModelPrice | null {
  const name = model.replace(/^models\//, "");
  const exact = table[name];
  if (exact) return exact;
  const prefix = Object.keys(table)
    .filter((key) => name.startsWith(`${key}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? null : (table[prefix] ?? null);
}

/** USD for one call; null when no candidate model has a price. */
export function costOf(
  table: PriceTable,
  models: readonly string[],
  inputTokens: number,
  outputTokens: number,
): number | null {
  for (const model of models) {
    const price = priceOf(table, model);
    if (price) return (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
  }
  return null;
}
