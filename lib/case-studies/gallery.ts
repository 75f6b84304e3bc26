/** Pure helpers for the case-study gallery: links, card excerpts and export rows. */
import { toQueryString } from "@/lib/dashboard/query-string";
import type { CaseStudyCard } from "./types";

/** The gallery filtered by a tag and/or a search: a stable, shareable link. */
export function galleryHref(filter: { tag?: string; q?: string } = {}): string {
  return `/case-studies${toQueryString({ tag: filter.tag, q: filter.q })}`;
}

/** `2026-03-01T10:00:00.000Z` as `2026-03-01 10:00 UTC`. */
export function formatStamp(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

export const EXCERPT_LENGTH = 280;

/** The start of a note on one line, cut at a word boundary with an ellipsis when longer than `max`. */
export function noteExcerpt(note: string, max = EXCERPT_LENGTH): string {
  const flat = note.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** One flat row per case study for the CSV and JSON export; lists are space-separated. */
export function caseStudyExportRows(cards: readonly CaseStudyCard[]) {
  return cards.map((c) => ({
    run_id: c.runId,
    title: c.title,
    tags: c.tags.join(" "),
    note: c.note,
    benchmark: c.benchmarkId,
    instance: c.instanceId,
    subtask: c.subtaskId,
    framework: c.framework,
    model: c.model,
    status: c.status,
    rule_judge_violated: c.violated === null ? null : c.violated.join(" "),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  }));
}
