import { describe, expect, it } from "vitest";
import * as agreement from "./index";

describe("lib/agreement public API", () => {
  it("exports the agreement statistics by name", () => {
    const required = [
      "cohenKappa",
      "fleissKappa",
      "krippendorffAlphaNominal",
      "gwetAC1",
      "wilsonInterval",
      "bootstrapInterval",
      "mcnemarExact",
      "confusionMatrix",
      "pairwiseCohenKappas",
      "percentAgreement",
      "majorityVote",
    ];
    for (const name of required) expect(typeof (agreement as Record<string, unknown>)[name], name).toBe("function");
  });
});
