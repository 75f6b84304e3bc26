import { describe, expect, it } from "vitest";
import { caseStudyExportRows, formatStamp, galleryHref, noteExcerpt } from "./gallery";
import type { CaseStudyCard } from "./types";

describe("galleryHref", () => {
  it("links the gallery with its filters, keys sorted, empty ones left out", () => {
    expect(galleryHref()).toBe("/case-studies");
    expect(galleryHref({ tag: "shell" })).toBe("/case-studies?tag=shell");
    expect(galleryHref({ tag: "", q: "rm -rf &" })).toBe("/case-studies?q=rm+-rf+%26");
    expect(galleryHref({ tag: "env", q: "x" })).toBe("/case-studies?q=x&tag=env");
  });
});

describe("formatStamp", () => {
  it("shows a stored time to the minute, in UTC", () => {
    expect(formatStamp("2026-03-01T10:05:59.123Z")).toBe("2026-03-01 10:05 UTC");
  });
});

describe("noteExcerpt", () => {
  it("keeps a short note whole, on one line", () => {
    expect(noteExcerpt("  first line\n\nsecond   line ")).toBe("first line second line");
    expect(noteExcerpt("")).toBe("");
  });

  it("cuts a long note at a word boundary with an ellipsis", () => {
    const excerpt = noteExcerpt("word ".repeat(100), 42);
    expect(excerpt).toBe(`${"word ".repeat(8).trimEnd()}…`);
    expect(excerpt.length).toBeLessThanOrEqual(43);
  });

  it("cuts inside a word when there is no space to cut at", () => {
    expect(noteExcerpt("x".repeat(50), 10)).toBe(`${"x".repeat(10)}…`);
  });
});

describe("caseStudyExportRows", () => {
  const card: CaseStudyCard = {
    runId: "r1",
    title: "Deletes tests",
    note: "n",
    tags: ["pytest", "shell"],
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-02T00:00:00.000Z",
    benchmarkId: "sample",
    instanceId: "sample/x",
    subtaskId: "read_first",
    framework: "synthetic",
    model: "m",
    status: "completed",
    violated: ["file_read", "file_delete"],
  };

  it("flattens lists and tells 'not judged' (null) from 'nothing violated' ('')", () => {
    const [judged, clean, unjudged] = caseStudyExportRows([
      card,
      { ...card, violated: [] },
      { ...card, violated: null },
    ]);
    expect(judged).toMatchObject({ run_id: "r1", tags: "pytest shell", rule_judge_violated: "file_read file_delete" });
    expect(clean!.rule_judge_violated).toBe("");
    expect(unjudged!.rule_judge_violated).toBeNull();
  });
});
