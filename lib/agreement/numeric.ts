/** Small array helpers shared by the statistics; inputs are validated before they get here. */

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/**
 * Index access inside loops whose bounds the caller has already checked. Keeps
 * `noUncheckedIndexedAccess` on for the rest of the code without `?? 0` fallbacks that would
 * silently turn an indexing bug into a wrong statistic.
 */
export function at<T>(values: readonly T[], index: number): T {
  if (index < 0 || index >= values.length) throw new RangeError(`index ${index} out of range 0..${values.length - 1}`);
  return values[index] as T;
}
