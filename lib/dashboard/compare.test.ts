import { describe, expect, it } from "vitest";
import { metricBit } from "@/lib/metrics/catalog";
import { comparedPair, compareConfigurations, type PairedRuns } from "./compare";

const read = metricBit("file_read");
const ctx = metricBit("context");

function pair(i: number, violatedA: number, violatedB: number, decided = read | ctx): PairedRuns {
  return {
    instanceId: `i${i}`,
    runA: `a${i}`,
    runB: `b${i}`,
    violatedA,
    decidedA: decided,
    violatedB,
    decidedB: decided,
  };
}

describe("compareConfigurations", () => {
  it("counts rates on pairs both decided, the delta and discordant pairs with McNemar's exact p", () => {
    const pairs = [
      ...Array.from({ length: 6 }, (_, i) => pair(i, read, 0)),
      pair(6, read, read),
      pair(7, 0, 0),
      pair(8, 0, 0, ctx),
    ];
    const result = compareConfigurations(pairs);
    const fileRead = result.metrics.find((m) => m.metric === "file_read")!;
    expect(fileRead).toMatchObject({ pairs: 8, violatedA: 7, violatedB: 1, onlyA: 6, onlyB: 0 });
    expect(fileRead.delta).toBeCloseTo(-6 / 8);
    expect(fileRead.pValue).toBeCloseTo(0.03125, 6);
    const syntax = result.metrics.find((m) => m.metric === "syntax")!;
    expect(syntax).toMatchObject({ pairs: 0, rateA: null, delta: null, pValue: null });
  });

  it("lists the instances where the verdicts differ, with which side violated what", () => {
    const result = compareConfigurations([pair(1, read, ctx), pair(2, read, read)]);
    expect(result.differing).toEqual([
      { instanceId: "i1", runA: "a1", runB: "b1", onlyA: ["file_read"], onlyB: ["context"] },
    ]);
  });

  it("ignores a violation the other side was not judged on", () => {
    const result = compareConfigurations([{ ...pair(1, read, 0), decidedB: 0 }]);
    expect(result.differing).toEqual([]);
  });
});

describe("comparedPair", () => {
  it("takes what was asked, else the first two different configurations", () => {
    expect(comparedPair(["x", "y", "z"], {})).toEqual({ a: "x", b: "y" });
    expect(comparedPair(["x", "y", "z"], { a: "y" })).toEqual({ a: "y", b: "x" });
    expect(comparedPair(["x"], {})).toEqual({ a: "x", b: undefined });
  });
});
