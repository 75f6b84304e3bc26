import { describe, expect, it } from "vitest";
import { bootstrap, bootstrapInterval, quantile } from "./bootstrap";
import { cohenKappa } from "./kappa";
import { expectInvalid } from "./test-support";

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const VALUES = [0.2, 0.9, 0.4, 0.7, 0.5, 0.6, 0.1, 0.8, 0.3, 1];

describe("bootstrapInterval", () => {
  it("gives the same interval for the same seed", () => {
    const first = bootstrapInterval(VALUES, mean, { seed: 20240607 });
    const second = bootstrapInterval(VALUES, mean, { seed: 20240607 });
    expect(first).not.toBeNull();
    expect(second).toEqual(first);
  });

  it("gives a different interval for another seed", () => {
    expect(bootstrapInterval(VALUES, mean, { seed: 2 })).not.toEqual(bootstrapInterval(VALUES, mean, { seed: 1 }));
  });

  it("brackets the sample mean within the data range", () => {
    const [lower, upper] = bootstrapInterval(VALUES, mean, { seed: 3, iterations: 4000 }) as [number, number];
    expect(lower).toBeLessThan(mean(VALUES));
    expect(upper).toBeGreaterThan(mean(VALUES));
    expect(lower).toBeGreaterThanOrEqual(0.1);
    expect(upper).toBeLessThanOrEqual(1);
  });

  it("narrows at a lower level", () => {
    const [l95, u95] = bootstrapInterval(VALUES, mean, { seed: 5 }) as [number, number];
    const [l50, u50] = bootstrapInterval(VALUES, mean, { seed: 5, level: 0.5 }) as [number, number];
    expect(u50 - l50).toBeLessThan(u95 - l95);
  });

  it("collapses to a point for a constant statistic", () => {
    expect(bootstrapInterval(VALUES, () => 0.886, { seed: 1, iterations: 50 })).toEqual([0.886, 0.886]);
  });

  it("resamples with replacement at the original size and leaves the items alone", () => {
    const items = [1, 2, 3];
    const sizes = new Set<number>();
    bootstrap(items, (sample) => sizes.add(sample.length).size, { seed: 9, iterations: 20 });
    expect([...sizes]).toEqual([3]);
    expect(items).toEqual([1, 2, 3]);
  });
});

describe("bootstrap with undefined statistics", () => {
  // Judge vs majority on a rare misbehavior: many resamples hold no "violated" at all.
  const pairs: [number, number][] = [[1, 1], ...Array.from({ length: 9 }, (): [number, number] => [0, 0])];
  const kappaOf = (sample: [number, number][]) => {
    const table = [
      [0, 0],
      [0, 0],
    ];
    for (const [a, b] of sample) (table[a] as number[])[b] = ((table[a] as number[])[b] ?? 0) + 1;
    return cohenKappa(table);
  };

  it("leaves undefined resamples out of the percentiles and counts them", () => {
    const result = bootstrap(pairs, kappaOf, { seed: 11, iterations: 500 });
    expect(result.undefinedCount).toBeGreaterThan(0);
    expect(result.estimates.length + result.undefinedCount).toBe(500);
    expect(result.interval).toEqual([1, 1]);
  });

  it("treats NaN like null", () => {
    expect(bootstrap(VALUES, () => NaN, { seed: 1, iterations: 10 })).toMatchObject({
      interval: null,
      undefinedCount: 10,
    });
  });

  it("returns a null interval for empty items", () => {
    expect(bootstrap([], mean, { seed: 1, iterations: 10 })).toMatchObject({
      interval: null,
      estimates: [],
      undefinedCount: 10,
    });
  });

  it("rejects bad options", () => {
    expectInvalid(
      () => bootstrapInterval(VALUES, mean, { seed: -1 }),
      "bootstrapInterval: options.seed must be between",
    );
    expectInvalid(() => bootstrapInterval(VALUES, mean, { seed: 1.5 }), "options.seed must be a whole number");
    expectInvalid(
      () => bootstrapInterval(VALUES, mean, { seed: 1, iterations: 0 }),
      "options.iterations must be at least 1",
    );
    expectInvalid(
      () => bootstrapInterval(VALUES, mean, { seed: 1, level: 1 }),
      "options.level must be strictly between",
    );
    expectInvalid(
      () => bootstrapInterval(VALUES, mean, { seed: 1, levels: 0.9 } as unknown as { seed: number }),
      "bootstrapInterval: options has unknown keys: levels",
    );
  });
});

describe("quantile (type 7)", () => {
  it("interpolates linearly between order statistics like R's default", () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(quantile(sorted, 0)).toBe(1);
    expect(quantile(sorted, 1)).toBe(10);
    expect(quantile(sorted, 0.5)).toBe(5.5);
    // R: quantile(1:10, c(0.025, 0.975)) -> 1.225 9.775
    expect(quantile(sorted, 0.025)).toBeCloseTo(1.225, 12);
    expect(quantile(sorted, 0.975)).toBeCloseTo(9.775, 12);
  });
});
