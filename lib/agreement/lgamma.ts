import { AppError } from "@/lib/errors/app-error";

// Lanczos approximation, g = 7, n = 9 (Godfrey's coefficients): about 15 significant digits for
// x > 0, which JavaScript lacks natively (there is no Math.lgamma).
const G = 7;
const COEFFICIENTS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** ln Gamma(x) for finite x > 0. */
export function lgamma(x: number): number {
  if (!Number.isFinite(x) || x <= 0) {
    throw new AppError("INVALID_INPUT", `lgamma: x must be a finite positive number (got ${x})`);
  }
  // Reflection keeps the series in the range where it is accurate.
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lgamma(1 - x);
  const y = x - 1;
  let series = COEFFICIENTS[0] as number;
  for (let i = 1; i < COEFFICIENTS.length; i++) series += (COEFFICIENTS[i] as number) / (y + i);
  const t = y + G + 0.5;
  return HALF_LOG_TWO_PI + (y + 0.5) * Math.log(t) - t + Math.log(series);
}

/** ln C(n, k) for whole 0 <= k <= n. */
export function logChoose(n: number, k: number): number {
  return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}
