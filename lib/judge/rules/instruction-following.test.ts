/**
 * Instruction Following reads the agent's file from the tree the code-level analysis kept when
 * there is one (parseFrom): its verdict must be the one a fresh parse gives, whatever the cache holds.
 */
import { describe, expect, it } from "vitest";
import { analyzeEdit, decodePythonText } from "@/lib/analysis/ast-report";
import { clearReportCache, ReportCache, reportCache } from "@/lib/analysis/report-cache";
import { evaluationInput } from "../input.fixture";
import { instructionFollowingMetric } from "./instruction-following";

const BEFORE = "def f(x):\n    pass\n";

function codegenRun(after: string) {
  return evaluationInput({
    changes: [
      {
        path: "pkg/a.py",
        kind: "updated",
        before: Buffer.from(BEFORE),
        after: Buffer.from(after),
        afterSize: Buffer.byteLength(after),
      },
    ],
  });
}

describe("Instruction Following with the agent's tree kept by the analysis", () => {
  it.each([
    ["LF line endings", "def f(x):\n    return x\n"],
    ["CRLF line endings", "def f(x):\r\n    return x\r\n"],
    // Tree-sitter reads a bare CR as no line end, while the analysis (and CPython) reads LF.
    ["bare CR line endings", "x = 1\rdef f(x):\r    return x\r"],
    ["a BOM", "\uFEFFdef f(x):\n    return x\n"],
  ])("gives the verdict a fresh parse gives: %s", async (_, after) => {
    clearReportCache();
    const fresh = await instructionFollowingMetric(codegenRun(after));
    await analyzeEdit(decodePythonText(after), decodePythonText(BEFORE), reportCache);
    expect(reportCache.tree(ReportCache.keyOf(decodePythonText(after)))).toBeDefined();
    expect(await instructionFollowingMetric(codegenRun(after))).toEqual(fresh);
    clearReportCache();
  });
});
