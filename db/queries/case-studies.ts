/**
 * Case studies: flagged runs with a title, a note and tags (lib/case-studies), and the gallery
 * that lists them with what the run was and what the rule judge found. Case studies are picked by
 * hand, so the gallery reads them all: no paging, LIKE for the search.
 */
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { CaseStudyInput } from "@/lib/case-studies/schema";
import type { CaseStudy, CaseStudyCard, CaseStudyGallery, TagCount } from "@/lib/case-studies/types";
import { AppError } from "@/lib/errors/app-error";
import { metricsInMask } from "@/lib/metrics/catalog";
import type { Db } from "../client";
import * as t from "../schema";

const cs = t.caseStudies;
const f = t.runFacts;

export interface GalleryFilter {
  /** Only case studies carrying this tag (lower-case). */
  tag?: string;
  /** Text to find in the title or the note (case-insensitive for ASCII, as SQLite's LIKE). */
  q?: string;
}

/** The JSON column as written by upsertCaseStudy; anything else reads as no tags. */
function tagsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === "string") : [];
}

function toCaseStudy(row: typeof cs.$inferSelect): CaseStudy {
  return { ...row, tags: tagsOf(row.tags) };
}

export function getCaseStudy(db: Db, runId: string): CaseStudy | null {
  const row = db.select().from(cs).where(eq(cs.runId, runId)).get();
  return row ? toCaseStudy(row) : null;
}

/**
 * Flags the run, or edits its case study: the first flag sets createdAt, every save updatedAt.
 * A run that does not exist is NOT_FOUND (rather than a foreign-key failure).
 */
export function upsertCaseStudy(
  db: Db,
  runId: string,
  input: CaseStudyInput,
  now: string = new Date().toISOString(),
): CaseStudy {
  return db.transaction((tx) => {
    const run = tx.select({ id: t.runs.id }).from(t.runs).where(eq(t.runs.id, runId)).get();
    if (!run) throw new AppError("NOT_FOUND", `run "${runId}" does not exist`);
    const values = { title: input.title, note: input.note, tags: input.tags, updatedAt: now };
    tx.insert(cs)
      .values({ runId, ...values, createdAt: now })
      .onConflictDoUpdate({ target: cs.runId, set: values })
      .run();
    return toCaseStudy(tx.select().from(cs).where(eq(cs.runId, runId)).get()!);
  });
}

/** Unflags the run; false when it was not a case study. */
export function removeCaseStudy(db: Db, runId: string): boolean {
  return db.delete(cs).where(eq(cs.runId, runId)).run().changes > 0;
}

/** `%text%` for LIKE with its wildcards taken literally (ESCAPE '\'). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function galleryConditions(filter: GalleryFilter): SQL | undefined {
  const q = filter.q?.trim();
  return and(
    filter.tag ? sql`EXISTS (SELECT 1 FROM json_each(${cs.tags}) WHERE value = ${filter.tag})` : undefined,
    q
      ? sql`(${cs.title} LIKE ${containsPattern(q)} ESCAPE '\\' OR ${cs.note} LIKE ${containsPattern(q)} ESCAPE '\\')`
      : undefined,
  );
}

/**
 * The gallery: matching case studies, most recently edited first, with the run's facts and the
 * metrics the rule judge found violated (the first rule judge by id, as the dashboard's default
 * judge; null when no rule judge scored the run), every tag with its count, and the total.
 */
export function listCaseStudies(db: Db, filter: GalleryFilter = {}): CaseStudyGallery {
  const rows = db
    .select({
      runId: cs.runId,
      title: cs.title,
      note: cs.note,
      tags: cs.tags,
      createdAt: cs.createdAt,
      updatedAt: cs.updatedAt,
      benchmarkId: f.benchmarkId,
      instanceId: f.instanceId,
      subtaskId: f.subtaskId,
      framework: f.framework,
      model: f.model,
      status: f.status,
      violatedMask: sql<number | null>`(
        SELECT m.violated_mask FROM run_judge_masks m JOIN judges j ON j.id = m.judge_id
        WHERE m.run_id = ${cs.runId} AND j.kind = 'rule' ORDER BY m.judge_id LIMIT 1)`,
    })
    .from(cs)
    .innerJoin(f, eq(f.runId, cs.runId))
    .where(galleryConditions(filter))
    .orderBy(desc(cs.updatedAt), asc(cs.runId))
    .all();
  const cards: CaseStudyCard[] = rows.map(({ violatedMask, tags, ...row }) => ({
    ...row,
    tags: tagsOf(tags),
    violated: violatedMask === null ? null : metricsInMask(violatedMask),
  }));
  const tags = db.all<TagCount>(sql`
    SELECT j.value AS tag, count(*) AS count FROM case_studies c, json_each(c.tags) j
    GROUP BY j.value ORDER BY count DESC, tag`);
  const total = db.select({ n: count() }).from(cs).get()?.n ?? 0;
  return { cards, tags, total };
}
