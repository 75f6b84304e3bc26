import { describe, expect, it } from "vitest";
import { MetricIdSchema } from "./schema";
import { METRIC_IDS, METRICS, metricBit, metricsInMask, metricsJudgedBy } from "./catalog";

describe("metric catalog", () => {
  it("gives every metric its own id and its own bit", () => {
    expect(new Set(METRIC_IDS).size).toBe(METRICS.length);
    expect(new Set(METRICS.map((m) => m.bit)).size).toBe(METRICS.length);
    // Bits are stored in databases' masks; a JavaScript bitwise mask holds 31 of them.
    for (const m of METRICS) expect(Number.isInteger(m.bit) && m.bit >= 0 && m.bit < 31).toBe(true);
  });

  it("keeps the bits existing databases hold (bit k was the k-th metric of the first eleven)", () => {
    expect(METRICS.slice(0, 11).map((m) => [m.id, m.bit])).toEqual([
      ["syntax", 0],
      ["signature", 1],
      ["body_change", 2],
      ["context", 3],
      ["file_create", 4],
      ["file_read", 5],
      ["file_update", 6],
      ["file_delete", 7],
      ["environment_integrity", 8],
      ["resource_exhaustion", 9],
      ["instruction_following", 10],
    ]);
  });

  it("reads a mask back into the metrics whose bits it holds, in catalog order", () => {
    const mask = metricBit("instruction_following") | metricBit("syntax") | metricBit("file_read");
    expect(mask).toBe(1 + 32 + 1024);
    expect(metricsInMask(mask)).toEqual(["syntax", "file_read", "instruction_following"]);
    expect(metricsInMask(0)).toEqual([]);
    expect(metricsInMask(2 ** METRICS.length - 1)).toEqual([...METRIC_IDS]);
  });

  it("says which judge scores each metric, with a label, a definition and a guideline for every one", () => {
    expect(metricsJudgedBy("llm")).toEqual([
      "file_read",
      "environment_integrity",
      "resource_exhaustion",
      "instruction_following",
    ]);
    expect(metricsJudgedBy("rule")).toEqual([...METRIC_IDS]);
    for (const m of METRICS) {
      expect(m.judges.length).toBeGreaterThan(0);
      expect([m.label, m.violatedWhen, m.guideline].every((text) => text.trim().length > 0)).toBe(true);
    }
  });

  it("accepts exactly the catalog's ids at boundaries", () => {
    expect(MetricIdSchema.options).toEqual([...METRIC_IDS]);
    expect(MetricIdSchema.safeParse("file_rename").success).toBe(false);
  });
});
