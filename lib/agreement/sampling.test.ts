import { describe, expect, it } from "vitest";
import { allocateProportional, assignAnnotators, stratifiedSample, stratumOf, type SampleCandidate } from "./sampling";
import { expectInvalid } from "./test-support";

/** `count` runs of one stratum, ids prefixed so strata never share an id. */
function stratum(subtask: string, framework: string, model: string, count: number): SampleCandidate[] {
  return Array.from({ length: count }, (_, i) => ({
    runId: `${subtask}-${framework}-${model}-${String(i).padStart(3, "0")}`,
    subtask,
    framework,
    model,
  }));
}

const population = [
  ...stratum("s1", "f1", "m1", 60),
  ...stratum("s1", "f2", "m1", 30),
  ...stratum("s2", "f1", "m2", 9),
  ...stratum("s3", "f1", "m1", 1),
];

describe("allocateProportional", () => {
  it("allocates proportionally, rounding by largest remainders", () => {
    // quotas 5.0, 2.5, 2.5 -> 5, and one of the two 2.5s gets the spare item
    const allocation = allocateProportional([50, 25, 25], 10, 1);
    expect(allocation[0]).toBe(5);
    expect([...allocation].sort()).toEqual([2, 3, 5]);
    // quotas 3.62, 2.41, 0.97: the last gets its one, then 3.6 and 2.4 of the other six -> 4, 2, 1
    expect(allocateProportional([60, 40, 16], 7, 3)).toEqual([4, 2, 1]);
  });

  it("gives every non-empty stratum at least one item while the size allows", () => {
    // quotas of the small strata are 0.1 and 0.2; they get 1 each and 98 + 2 shares the other 8
    expect(allocateProportional([98, 1, 2, 0], 10, 7)).toEqual([8, 1, 1, 0]);
    // fewer items than strata: the largest strata win, never an empty one
    expect(allocateProportional([5, 1, 9, 0], 2, 7)).toEqual([1, 0, 1, 0]);
  });

  it("takes everything when the size reaches the population", () => {
    expect(allocateProportional([3, 0, 2], 5, 1)).toEqual([3, 0, 2]);
    expect(allocateProportional([3, 0, 2], 50, 1)).toEqual([3, 0, 2]);
  });

  it("sums to the size and never exceeds a stratum, for many shapes and seeds", () => {
    for (let seed = 0; seed < 200; seed++) {
      const populations = Array.from({ length: 1 + (seed % 9) }, (_, h) => ((seed * 7 + h * 13) % 11) + (h % 3));
      const total = populations.reduce((a, b) => a + b, 0);
      const size = 1 + (seed % Math.max(1, total));
      const allocation = allocateProportional(populations, size, seed);
      expect(allocation.reduce((a, b) => a + b, 0)).toBe(Math.min(size, total));
      allocation.forEach((n, h) => expect(n).toBeLessThanOrEqual(populations[h] ?? 0));
      const nonEmpty = populations.filter((n) => n > 0).length;
      if (size >= nonEmpty) populations.forEach((n, h) => n > 0 && expect(allocation[h]).toBeGreaterThanOrEqual(1));
    }
  });
});

describe("stratifiedSample", () => {
  it("draws the default 200 (or everything) by subtask x framework x model", () => {
    const small = stratifiedSample(population, { seed: 1 });
    expect(small.items).toHaveLength(100);
    expect(small.population).toBe(100);
  });

  it("allocates per stratum and stores the stratum key with each item", () => {
    const sample = stratifiedSample(population, { seed: 42, size: 20 });
    expect(sample.allocation).toEqual([
      // s3 has 0.2 of an item, so exactly one; 19 left: 11.52, 5.76, 1.73 -> 11 + 6 + 2
      { stratum: "s1|f1|m1", population: 60, sampled: 11 },
      { stratum: "s1|f2|m1", population: 30, sampled: 6 },
      { stratum: "s2|f1|m2", population: 9, sampled: 2 },
      { stratum: "s3|f1|m1", population: 1, sampled: 1 },
    ]);
    expect(sample.items.map((item) => item.position)).toEqual([...Array(20).keys()]);
    for (const item of sample.items) expect(item.runId.startsWith(item.stratum.replaceAll("|", "-"))).toBe(true);
    expect(new Set(sample.items.map((item) => item.runId)).size).toBe(20);
  });

  it("is deterministic for a seed whatever the candidates' order, and differs between seeds", () => {
    const a = stratifiedSample(population, { seed: 9, size: 30 });
    const b = stratifiedSample([...population].reverse(), { seed: 9, size: 30 });
    const c = stratifiedSample(population, { seed: 10, size: 30 });
    expect(b).toEqual(a);
    expect(c.items.map((item) => item.runId)).not.toEqual(a.items.map((item) => item.runId));
  });

  it("stratifies by any subset of the fields; none is a simple random sample", () => {
    const byModel = stratifiedSample(population, { seed: 3, size: 10, strata: ["model"] });
    expect(byModel.allocation).toEqual([
      { stratum: "m1", population: 91, sampled: 9 },
      { stratum: "m2", population: 9, sampled: 1 },
    ]);
    const simple = stratifiedSample(population, { seed: 3, size: 10, strata: [] });
    expect(simple.allocation).toEqual([{ stratum: "", population: 100, sampled: 10 }]);
    expect(stratumOf(population[0]!, ["model", "subtask"])).toBe("s1|m1");
  });

  it("rejects a bad size and duplicate candidates", () => {
    expectInvalid(() => stratifiedSample(population, { seed: 1, size: 0 }), "size must be a whole number");
    expectInvalid(() => stratifiedSample([population[0]!, population[0]!], { seed: 1 }), "is a candidate twice");
  });
});

describe("assignAnnotators", () => {
  const items = Array.from({ length: 10 }, (_, i) => `run-${i}`);

  it("gives every item k distinct annotators with loads that differ by at most one", () => {
    for (const [annotators, k] of [
      [[1, 2, 3], 3],
      [[1, 2, 3, 4], 3],
      [[1, 2, 3, 4, 5, 6, 7], 2],
      [[5, 8], 1],
    ] as const) {
      const assigned = assignAnnotators(items, annotators, k, 11);
      const loads = new Map<number, number>(annotators.map((a) => [a, 0]));
      for (const { annotatorIds } of assigned) {
        expect(annotatorIds).toHaveLength(k);
        expect(new Set(annotatorIds).size).toBe(k);
        for (const a of annotatorIds) loads.set(a, (loads.get(a) ?? 0) + 1);
      }
      const counts = [...loads.values()];
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(items.length * k);
    }
  });

  it("keeps the items in order and is deterministic for a seed", () => {
    const a = assignAnnotators(items, [1, 2, 3, 4], 3, 5);
    expect(a.map((x) => x.item)).toEqual(items);
    expect(assignAnnotators(items, [1, 2, 3, 4], 3, 5)).toEqual(a);
  });

  it("names the problem when k exceeds the annotators", () => {
    expectInvalid(
      () => assignAnnotators(items, [1, 2], 3, 1),
      "each item needs 3 distinct annotators but only 2 annotators are enrolled",
    );
    expectInvalid(() => assignAnnotators(items, [1, 1, 2], 2, 1), "listed twice");
    expectInvalid(() => assignAnnotators(items, [1, 2], 0, 1), "must be a whole number >= 1");
  });
});
