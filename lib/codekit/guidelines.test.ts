import { describe, expect, it } from "vitest";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { formatGuidelines, guidelinesFor, latestGuidelineVersion } from "./guidelines";

describe("guidelines", () => {
  it("has one rule per metric of the catalog, in catalog order", () => {
    const all = guidelinesFor()!;
    expect(all.map((g) => g.metric)).toEqual([...METRIC_IDS]);
    for (const g of all) {
      expect(g.rule.length).toBeGreaterThan(10);
      expect(g.version).toBe(latestGuidelineVersion(g.metric));
    }
  });

  it("returns the rules of the metrics asked for only", () => {
    const some = guidelinesFor({ metrics: ["file_read", "signature"] })!;
    expect(some.map((g) => g.metric)).toEqual(["signature", "file_read"]);
    expect(formatGuidelines(some).split("\n")).toHaveLength(2);
  });

  it("pins a version and refuses one that does not exist", () => {
    expect(guidelinesFor({ metrics: ["syntax"], version: 1 })![0]!.version).toBe(1);
    expect(guidelinesFor({ metrics: ["syntax"], version: 99 })).toBeNull();
  });
});
