import { describe, expect, it } from "vitest";
import { costOf, DEFAULT_PRICES, priceOf } from "./pricing";

describe("pricing", () => {
  it("finds a model's price exactly, by the longest prefix, or not at all", () => {
    expect(priceOf(DEFAULT_PRICES, "gemini-2.5-flash")).toEqual({ inputPerMillion: 0.3, outputPerMillion: 2.5 });
    expect(priceOf(DEFAULT_PRICES, "models/gemini-2.5-flash-lite-preview-06-17")).toEqual({
      inputPerMillion: 0.1,
      outputPerMillion: 0.4,
    });
    expect(priceOf(DEFAULT_PRICES, "gemini-2.5-flash-preview-09-2025")?.inputPerMillion).toBe(0.3);
    expect(priceOf(DEFAULT_PRICES, "gemini-2.5-flashy")).toBeNull();
  });

  it("costs a call from its tokens, trying models in order", () => {
    expect(costOf(DEFAULT_PRICES, ["gemini-2.5-pro"], 1_000_000, 100_000)).toBeCloseTo(1.25 + 1, 10);
    expect(costOf(DEFAULT_PRICES, ["unknown", "gemini-2.5-flash"], 2_000_000, 0)).toBeCloseTo(0.6, 10);
    expect(costOf(DEFAULT_PRICES, ["mock-gemini"], 5_000, 5_000)).toBe(0);
    expect(costOf(DEFAULT_PRICES, ["unknown"], 1, 1)).toBeNull();
  });
});
