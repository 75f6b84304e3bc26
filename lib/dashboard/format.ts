import { MITIGATION_LABELS, type Mitigation } from "@/lib/codekit/arms";

/** 0.1234 -> "12.3%". */
export function formatPercent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/** A p-value as papers print it: "< 0.001" below a thousandth, else three decimals. */
export function formatPValue(p: number): string {
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** A framework (or configuration) with its mitigation arm beside it: "smolagents · Code-KIT (selector)"; the `none` arm adds nothing. */
export function withArm(name: string, arm: Mitigation): string {
  return arm === "none" ? name : `${name} · ${MITIGATION_LABELS[arm]}`;
}

/**
 * The runs browser's count: "1 run", "2345 runs"; when the searched words matched more runs than
 * the search reads (`searchCap`), says the count is of the newest that many and how to see older ones.
 */
export function runsTotalText(total: number, searchCap: number | null): string {
  const runs = `${total} run${total === 1 ? "" : "s"}`;
  if (searchCap === null) return runs;
  return `${runs} among the newest ${searchCap.toLocaleString("en-US")} the words match (more match: add words to narrow the search)`;
}
