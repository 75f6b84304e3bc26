import { describe, expect, it } from "vitest";
import { splitTags, tagProblem } from "./fields";
import { GalleryParamsSchema, parseCaseStudyForm } from "./schema";

describe("splitTags", () => {
  it("splits on commas and any whitespace, lower-cases, drops empties, deduplicates and sorts", () => {
    expect(splitTags(" Shell, env\trm-rf,,  shell\nENV ")).toEqual(["env", "rm-rf", "shell"]);
    expect(splitTags("")).toEqual([]);
    expect(splitTags(" , ,\n")).toEqual([]);
  });
});

describe("tagProblem", () => {
  it("accepts a-z, 0-9, '-', '_' and '.' up to 40 characters", () => {
    expect(tagProblem("file_read.v2-x")).toBeNull();
    expect(tagProblem("a".repeat(40))).toBeNull();
  });

  it("names the bad tag", () => {
    expect(tagProblem("a".repeat(41))).toBe(`"${"a".repeat(41)}" is longer than 40 characters`);
    expect(tagProblem("bad/tag")).toBe(`"bad/tag" may contain only a-z, 0-9, "-", "_" and "."`);
    expect(tagProblem("é")).toMatch(/^"é" may contain only/);
    expect(tagProblem("x".repeat(60))).toContain("…");
  });
});

describe("parseCaseStudyForm", () => {
  it("normalizes a good form: trimmed title and note, tags lower-case, unique, sorted", () => {
    expect(
      parseCaseStudyForm({ title: "  Deletes the tests  ", note: " why \n", tags: "Shell, pytest shell" }),
    ).toEqual({
      ok: true,
      value: { title: "Deletes the tests", note: "why", tags: ["pytest", "shell"] },
    });
  });

  it("takes an absent note and absent tags as empty", () => {
    expect(parseCaseStudyForm({ title: "t" })).toEqual({ ok: true, value: { title: "t", note: "", tags: [] } });
  });

  it("accepts the limits exactly", () => {
    const tags = Array.from({ length: 20 }, (_, i) => `t${i}`).join(",");
    const parsed = parseCaseStudyForm({ title: "x".repeat(200), note: "n".repeat(20_000), tags });
    expect(parsed.ok && parsed.value.tags).toHaveLength(20);
  });

  it("names the field in each message, one message per bad field", () => {
    const parsed = parseCaseStudyForm({ title: "   ", note: "n".repeat(20_001), tags: "ok, bad/tag" });
    expect(parsed).toEqual({
      ok: false,
      fieldErrors: {
        title: "Title is required",
        note: "Note: at most 20,000 characters",
        tags: 'Tags: "bad/tag" may contain only a-z, 0-9, "-", "_" and "."',
      },
    });
  });

  it("reports a missing or non-text title, a long title, too many tags and every bad tag", () => {
    expect(parseCaseStudyForm({})).toEqual({ ok: false, fieldErrors: { title: "Title is required" } });
    expect(parseCaseStudyForm({ title: 3 })).toEqual({ ok: false, fieldErrors: { title: "Title is required" } });
    expect(parseCaseStudyForm({ title: "x".repeat(201) })).toEqual({
      ok: false,
      fieldErrors: { title: "Title: at most 200 characters" },
    });
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`).join(" ");
    expect(parseCaseStudyForm({ title: "t", tags: many })).toEqual({
      ok: false,
      fieldErrors: { tags: "Tags: at most 20 tags (got 21)" },
    });
    const two = parseCaseStudyForm({ title: "t", tags: `a!b ${"y".repeat(41)}` });
    expect(two.ok ? null : two.fieldErrors.tags).toBe(
      `Tags: "a!b" may contain only a-z, 0-9, "-", "_" and "."; "${"y".repeat(41)}" is longer than 40 characters`,
    );
    expect(parseCaseStudyForm({ title: "t", tags: "a ".repeat(1_001) })).toEqual({
      ok: false,
      fieldErrors: { tags: "Tags: at most 2,000 characters of input" },
    });
    expect(parseCaseStudyForm({ title: "t", note: 5 })).toEqual({
      ok: false,
      fieldErrors: { note: "Note must be text" },
    });
  });
});

describe("GalleryParamsSchema", () => {
  it("takes a tag (lower-cased) and a search", () => {
    expect(GalleryParamsSchema.parse({ tag: "Shell", q: "rm -rf" })).toEqual({ tag: "shell", q: "rm -rf" });
    expect(GalleryParamsSchema.parse({})).toEqual({});
  });

  it("rejects a tag that no case study could carry", () => {
    const result = GalleryParamsSchema.safeParse({ tag: "a/b" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ["tag"] });
  });
});
