/**
 * Token prices per model (USD per 1M tokens) and the cost of one call. Defaults are Google's
 * published paid-tier text prices for the Gemini 2.5 family (prompts up to 200k tokens; thinking
 * tokens are billed as output); pass your own table to override or extend them.
 */
import type { ModelPrice, PriceTable } from "./schema";

export const DEFAULT_PRICES: PriceTable = {
  "gemini-2.5-flash": { inputPerMillion: 0.3, outputPerMillion: 2.5 },
  "gemini-2.5-flash-lite": { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  "gemini-2.5-pro": { inputPerMillion: 1.25, outputPerMillion: 10 },
  // The scripted mock of the offline demo costs nothing, and says so.
  "mock-gemini": { inputPerMillion: 0, outputPerMillion: 0 },
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
