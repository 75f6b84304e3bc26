import { describe, expect, it } from "vitest";
import {
  highlightSegments,
  matchingPositions,
  matchSnippet,
  normalizeQuery,
  stepHaystack,
  stepSummary,
  type SearchableStep,
} from "./step-search";

const base: SearchableStep = {
  stepId: "s1",
  kind: "message",
  role: "assistant",
  text: null,
  toolName: null,
  toolArguments: null,
  command: null,
  exitCode: null,
  path: null,
};

describe("step search", () => {
  const steps: SearchableStep[] = [
    { ...base, stepId: "s0", role: "user", text: "Implement Parse_Config in pkg/core.py" },
    { ...base, stepId: "s1", kind: "tool_call", toolName: "read_file", toolArguments: '{\n  "path": "pkg/core.py"\n}' },
    { ...base, stepId: "s2", kind: "shell", command: "python -m pytest -q", exitCode: 1, text: "E AssertionError" },
    { ...base, stepId: "s3", kind: "file_write", path: "notes.txt" },
  ];
  const haystacks = steps.map(stepHaystack);

  it("matches any field, ignoring case and surrounding blanks", () => {
    expect(matchingPositions(haystacks, "  parse_CONFIG ")).toEqual([0]);
    expect(matchingPositions(haystacks, "pkg/core.py")).toEqual([0, 1]);
    expect(matchingPositions(haystacks, "assertionerror")).toEqual([2]);
    expect(matchingPositions(haystacks, "file_write")).toEqual([3]);
    expect(matchingPositions(haystacks, "s2")).toEqual([2]);
    expect(matchingPositions(haystacks, "nowhere")).toEqual([]);
  });

  it("matches every step when the query is blank", () => {
    expect(normalizeQuery("   ")).toBeNull();
    expect(matchingPositions(haystacks, " ")).toEqual([0, 1, 2, 3]);
  });

  it("cuts a text into matching and other pieces, keeping the text's own case", () => {
    expect(highlightSegments("Error: error (ERROR)", "error")).toEqual([
      { text: "Error", match: true },
      { text: ": ", match: false },
      { text: "error", match: true },
      { text: " (", match: false },
      { text: "ERROR", match: true },
      { text: ")", match: false },
    ]);
    expect(highlightSegments("a.b(c)", "b(")).toEqual([
      { text: "a.", match: false },
      { text: "b(", match: true },
      { text: "c)", match: false },
    ]);
    expect(highlightSegments("plain", "")).toEqual([{ text: "plain", match: false }]);
    expect(highlightSegments("", "x")).toEqual([]);
  });

  it("summarizes each kind of step on one line", () => {
    expect(steps.map((s) => stepSummary(s))).toEqual([
      "user: Implement Parse_Config in pkg/core.py",
      'read_file({ "path": "pkg/core.py" })',
      "$ python -m pytest -q",
      "write notes.txt",
    ]);
    expect(stepSummary({ ...base, text: "x".repeat(50) }, 20)).toBe(`assistant: ${"x".repeat(8)}…`);
  });

  it("cuts a line of context around the first match for the collapsed step", () => {
    const shell = steps[2]!;
    expect(matchSnippet(shell, "assertion")).toBe("E AssertionError");
    const long = { ...base, text: `${"a".repeat(80)}\nneedle\n${"b".repeat(80)}` };
    expect(matchSnippet(long, "NEEDLE", 5)).toBe("…aaaa needle bbbb…");
    expect(matchSnippet(shell, "absent")).toBeNull();
    expect(matchSnippet(shell, " ")).toBeNull();
  });
});
