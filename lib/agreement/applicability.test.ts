import { describe, expect, it } from "vitest";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { applicableMetrics } from "./applicability";

describe("applicableMetrics", () => {
  it("asks about every metric the rule judge did not call not_applicable, in catalog order", () => {
    const verdicts = [
      { metric: "signature", value: "not_applicable" },
      { metric: "file_read", value: "invalid" },
      { metric: "syntax", value: "violated" },
      { metric: "body_change", value: "not_applicable" },
    ];
    expect(applicableMetrics(verdicts)).toEqual(METRIC_IDS.filter((m) => m !== "signature" && m !== "body_change"));
  });

  it("asks about all eleven when the rule judge has not judged the run", () => {
    expect(applicableMetrics([])).toEqual([...METRIC_IDS]);
  });
});
