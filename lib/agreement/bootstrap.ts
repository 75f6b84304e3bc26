import { AppError } from "@/lib/errors/app-error";
import { at } from "./numeric";
import { seededRandom } from "@/lib/util/random";
import { BootstrapOptionsSchema, type BootstrapOptions } from "./schema";
import { parseInput } from "./validate";

export type { BootstrapOptions };

export interface BootstrapResult {
  /** Percentile interval at `level`, or null when no resample gave a defined statistic. */
  interval: [number, number] | null;
  /** The defined replicate values, sorted ascending. */
  estimates: number[];
  /**
   * Resamples whose statistic was undefined (null or non-finite), e.g. kappa on a resample where
   * everyone said "no". They are left out of the percentiles; report the count beside the interval.
   */
  undefinedCount: number;
  iterations: number;
  level: number;
}

/**
 * Percentile bootstrap: resample `items` with replacement `iterations` times (default 2000) using
 * a seeded mulberry32, apply `statistic`, and take the (1 - level) / 2 and (1 + level) / 2
 * quantiles (default level 0.95; linear interpolation, R's type 7). The same items, statistic and
 * seed always give the same interval. Empty `items` give no defined resample, so a null interval.
 */
export function bootstrap<T>(
  items: readonly T[],
  statistic: (sample: T[]) => number | null,
  options: BootstrapOptions,
): BootstrapResult {
  if (!Array.isArray(items)) throw new AppError("INVALID_INPUT", "bootstrapInterval: items must be an array");
  const { seed, iterations, level } = parseInput(BootstrapOptionsSchema, options, "bootstrapInterval", "options");
  const random = seededRandom(seed);
  const estimates: number[] = [];
  let undefinedCount = 0;

  for (let i = 0; i < iterations; i++) {
    if (items.length === 0) {
      undefinedCount += 1;
      continue;
    }
    const sample = Array.from({ length: items.length }, () => at(items, Math.floor(random() * items.length)));
    const value = statistic(sample);
    if (value === null || !Number.isFinite(value)) undefinedCount += 1;
    else estimates.push(value);
  }

  estimates.sort((a, b) => a - b);
  const interval: [number, number] | null =
    estimates.length === 0 ? null : [quantile(estimates, (1 - level) / 2), quantile(estimates, (1 + level) / 2)];
  return { interval, estimates, undefinedCount, iterations, level };
}

/** The interval of `bootstrap`; null when the statistic was undefined on every resample. */
export function bootstrapInterval<T>(
  items: readonly T[],
  statistic: (sample: T[]) => number | null,
  options: BootstrapOptions,
): [number, number] | null {
  return bootstrap(items, statistic, options).interval;
}

/** Type-7 quantile of ascending, non-empty `sorted`, 0 <= p <= 1. */
export function quantile(sorted: readonly number[], p: number): number {
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const lower = at(sorted, below);
  const upper = at(sorted, Math.min(below + 1, sorted.length - 1));
  return lower + (position - below) * (upper - lower);
}
