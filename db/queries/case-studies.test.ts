import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { isAppError } from "@/lib/errors/app-error";
import { createDb } from "../client";
import { getCaseStudy, listCaseStudies, removeCaseStudy, upsertCaseStudy } from "./case-studies";
import { ensureJudge, saveVerdicts } from "./verdicts";
import { importParsedBundle } from "./run-import";

function seeded(count: number) {
  const db = createDb(":memory:");
  for (let i = 0; i < count; i++) {
    importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 5 })), `b${i}`), {
      via: "cli",
    });
  }
  return db;
}

const id = (i: number) => `synthetic-5-${String(i).padStart(6, "0")}`;
const T1 = "2026-03-01T10:00:00.000Z";
const T2 = "2026-03-02T10:00:00.000Z";
const T3 = "2026-03-03T10:00:00.000Z";
const v = (metric: "file_read" | "file_delete" | "context", value: "violated" | "not_violated") => ({
  metric,
  value,
  rationale: "",
  citations: [],
  evidence: [],
});

describe("case studies", () => {
  it("flags a run, then edits it: createdAt stays, updatedAt moves", () => {
    const db = seeded(1);
    expect(getCaseStudy(db, id(0))).toBeNull();
    const first = upsertCaseStudy(db, id(0), { title: "Deletes tests", note: "n", tags: ["pytest"] }, T1);
    expect(first).toEqual({
      runId: id(0),
      title: "Deletes tests",
      note: "n",
      tags: ["pytest"],
      createdAt: T1,
      updatedAt: T1,
    });
    upsertCaseStudy(db, id(0), { title: "Deletes the tests", note: "", tags: ["pytest", "shell"] }, T2);
    expect(getCaseStudy(db, id(0))).toEqual({
      runId: id(0),
      title: "Deletes the tests",
      note: "",
      tags: ["pytest", "shell"],
      createdAt: T1,
      updatedAt: T2,
    });
  });

  it("refuses a run that does not exist with NOT_FOUND", () => {
    const db = seeded(0);
    let thrown: unknown;
    try {
      upsertCaseStudy(db, "no-such-run", { title: "t", note: "", tags: [] });
    } catch (error) {
      thrown = error;
    }
    expect(isAppError(thrown, "NOT_FOUND")).toBe(true);
    expect(listCaseStudies(db).total).toBe(0);
  });

  it("unflags a run once", () => {
    const db = seeded(1);
    upsertCaseStudy(db, id(0), { title: "t", note: "", tags: [] });
    expect(removeCaseStudy(db, id(0))).toBe(true);
    expect(removeCaseStudy(db, id(0))).toBe(false);
    expect(getCaseStudy(db, id(0))).toBeNull();
  });

  it("shows an empty gallery on an empty database", () => {
    expect(listCaseStudies(createDb(":memory:"))).toEqual({ cards: [], tags: [], total: 0 });
  });

  it("lists case studies newest edit first with the run's facts and the rule judge's violations", () => {
    const db = seeded(3);
    const rule = ensureJudge(db, { kind: "rule", name: "rules", promptVersion: "rules-v1" });
    const llm = ensureJudge(db, { kind: "llm", name: "gemini", provider: "gemini", model: "m", promptVersion: "v1" });
    saveVerdicts(db, id(0), rule, [
      v("file_read", "violated"),
      v("file_delete", "violated"),
      v("context", "not_violated"),
    ]);
    saveVerdicts(db, id(0), llm, [v("context", "violated")]);
    saveVerdicts(db, id(1), rule, [v("file_read", "not_violated")]);
    saveVerdicts(db, id(2), llm, [v("file_read", "violated")]);
    upsertCaseStudy(db, id(0), { title: "zero", note: "", tags: [] }, T2);
    upsertCaseStudy(db, id(1), { title: "one", note: "", tags: [] }, T3);
    upsertCaseStudy(db, id(2), { title: "two", note: "", tags: [] }, T1);

    const gallery = listCaseStudies(db);
    expect(gallery.total).toBe(3);
    expect(gallery.cards.map((c) => c.runId)).toEqual([id(1), id(0), id(2)]);
    const run = generatedRunRecord({ index: 0, seed: 5 });
    expect(gallery.cards[1]).toEqual({
      runId: id(0),
      title: "zero",
      note: "",
      tags: [],
      createdAt: T2,
      updatedAt: T2,
      benchmarkId: "synthetic",
      instanceId: run.manifest.instanceId,
      subtaskId: run.instance!.subtask,
      framework: "synthetic",
      model: run.manifest.agent.model,
      status: run.manifest.status,
      // catalog order, and only the rule judge's (the LLM judge's context violation is not shown)
      violated: ["file_read", "file_delete"],
    });
    expect(gallery.cards[0]!.violated).toEqual([]);
    expect(gallery.cards[2]!.violated).toBeNull();
  });

  it("filters by tag and by text in the title or the note, and counts every tag", () => {
    const db = seeded(4);
    upsertCaseStudy(db, id(0), { title: "Deletes the tests", note: "", tags: ["pytest", "shell"] }, T1);
    upsertCaseStudy(db, id(1), { title: "Reads nothing", note: "Wrote before READING", tags: ["shell"] }, T2);
    upsertCaseStudy(db, id(2), { title: "100% sure", note: "snake_case", tags: [] }, T3);
    upsertCaseStudy(db, id(3), { title: "1000 files", note: "snakeXcase", tags: ["env"] }, T3);

    const ids = (filter: Parameters<typeof listCaseStudies>[1]) =>
      listCaseStudies(db, filter).cards.map((c) => c.runId);
    expect(ids({ tag: "shell" })).toEqual([id(1), id(0)]);
    expect(ids({ tag: "pytest" })).toEqual([id(0)]);
    expect(ids({ tag: "nothing" })).toEqual([]);
    expect(ids({ q: "reading" })).toEqual([id(1)]);
    expect(ids({ q: "DELETES" })).toEqual([id(0)]);
    expect(ids({ q: "shell" })).toEqual([]);
    // LIKE wildcards in the search are plain text
    expect(ids({ q: "100%" })).toEqual([id(2)]);
    expect(ids({ q: "snake_case" })).toEqual([id(2)]);
    expect(ids({ q: "  " })).toHaveLength(4);
    expect(ids({ tag: "shell", q: "tests" })).toEqual([id(0)]);

    const gallery = listCaseStudies(db, { tag: "env" });
    expect(gallery.total).toBe(4);
    expect(gallery.tags).toEqual([
      { tag: "shell", count: 2 },
      { tag: "env", count: 1 },
      { tag: "pytest", count: 1 },
    ]);
  });

  it("goes with its run when the run is deleted", () => {
    const db = seeded(1);
    upsertCaseStudy(db, id(0), { title: "t", note: "", tags: ["x"] });
    db.$client.prepare("DELETE FROM runs WHERE id = ?").run(id(0));
    expect(listCaseStudies(db)).toEqual({ cards: [], tags: [], total: 0 });
  });
});
