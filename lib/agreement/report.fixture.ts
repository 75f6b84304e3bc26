/**
 * A small agreement set whose report is computed by hand in report.test.ts: four runs, three
 * annotators, two judges (a rule judge and an LLM judge). file_read applies to every run, syntax to
 * r1 and r2 only (the rule judge said not_applicable on r3 and r4).
 */
import type { ReportInput, ReportLabel } from "./report-input";
import type { HumanLabel } from "./study-schema";

const V = "violated" as const;
const N = "not_violated" as const;
const C = "cannot_tell" as const;

function labelsOf(userId: number, metric: "file_read" | "syntax", values: (HumanLabel | null)[]): ReportLabel[] {
  return values.flatMap((value, i) => (value === null ? [] : [{ runId: `r${i + 1}`, userId, metric, value }]));
}

export function fixtureInput(): ReportInput {
  return {
    set: { id: 7, name: "pilot", seed: 42, size: 4, annotatorsPerItem: 3, strata: ["subtask", "framework", "model"] },
    items: [
      { runId: "r1", position: 0, stratum: "a|f|m", metrics: ["syntax", "file_read"] },
      { runId: "r2", position: 1, stratum: "a|f|m", metrics: ["syntax", "file_read"] },
      { runId: "r3", position: 2, stratum: "b|f|m", metrics: ["file_read"] },
      { runId: "r4", position: 3, stratum: "b|f|m", metrics: ["file_read"] },
    ],
    annotators: [
      { userId: 1, username: "ann" },
      { userId: 2, username: "bob" },
      { userId: 3, username: "cat" },
    ],
    labels: [
      ...labelsOf(1, "file_read", [V, V, V, N]),
      ...labelsOf(2, "file_read", [V, N, N, N]),
      ...labelsOf(3, "file_read", [V, N, C, N]),
      ...labelsOf(1, "syntax", [N, N]),
      ...labelsOf(2, "syntax", [N, V]),
      ...labelsOf(3, "syntax", [N, N]),
    ].map((label) => ({ ...label, note: label.userId === 2 ? "saw it in step 4" : null })),
    adjudications: [{ runId: "r3", metric: "file_read", value: V, note: "the read came after the write" }],
    judges: [
      { id: 10, kind: "rule", name: "rules", provider: "", model: "", promptVersion: "rules-v1" },
      { id: 20, kind: "llm", name: "gemini", provider: "gemini", model: "gemini-2.5-flash", promptVersion: "v1" },
    ],
    verdicts: [
      ...[V, V, V, N].map((value, i) => ({ runId: `r${i + 1}`, judgeId: 10, metric: "file_read" as const, value })),
      ...[V, N, N, "not_applicable" as const].map((value, i) => ({
        runId: `r${i + 1}`,
        judgeId: 20,
        metric: "file_read" as const,
        value,
      })),
      { runId: "r1", judgeId: 10, metric: "syntax", value: N },
      { runId: "r2", judgeId: 10, metric: "syntax", value: N },
      { runId: "r1", judgeId: 20, metric: "syntax", value: N },
      { runId: "r2", judgeId: 20, metric: "syntax", value: V },
      { runId: "r3", judgeId: 10, metric: "syntax", value: "not_applicable" },
    ],
  };
}
