/**
 * The filter fields the dashboard pages share (overview, compare, runs): which benchmark and which
 * judge a page shows, and the mitigation arm. Each page adds its own fields beside them.
 */
import { MITIGATION_LABELS, type Mitigation } from "@/lib/codekit/arms";

export interface FilterField {
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
}

type Option = FilterField["options"][number];

/** `all`: an extra first choice that selects every benchmark (the runs browser has one). */
export function benchmarkField(
  benchmarks: readonly { id: string; name: string }[],
  value: string,
  all?: Option,
): FilterField {
  const options = benchmarks.map((b) => ({ value: b.id, label: b.name }));
  return { name: "benchmark", label: "Benchmark", value, options: all ? [all, ...options] : options };
}

export function judgeField(
  judges: readonly { id: number; label: string }[],
  value: number | string | null,
): FilterField {
  return {
    name: "judge",
    label: "Judge",
    value: value === null ? "" : String(value),
    options: judges.map((j) => ({ value: String(j.id), label: j.label })),
  };
}

/** The arms to choose from (those stored), and the one asked for even when no configuration has it. */
export function armField(arms: readonly Mitigation[], value: Mitigation | undefined): FilterField {
  const shown = value === undefined || arms.includes(value) ? arms : [...arms, value];
  return {
    name: "arm",
    label: "Arm",
    value: value ?? "",
    options: [{ value: "", label: "all arms" }, ...shown.map((arm) => ({ value: arm, label: MITIGATION_LABELS[arm] }))],
  };
}
