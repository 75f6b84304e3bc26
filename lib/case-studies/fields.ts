/**
 * The limits and the tag rules of a case study's fields. No zod: the flag form on the run page (a
 * client component) checks them as the user types without loading it; ./schema.ts applies the
 * same rules to what the server receives.
 */
import type { FieldErrors } from "@/lib/errors/action-result";

export const TITLE_MAX = 200;
export const NOTE_MAX = 20_000;
export const TAG_MAX = 40;
export const TAGS_MAX = 20;
/** Allowed after lower-casing: letters, digits, "-", "_" and ".". */
const TAG_PATTERN = /^[a-z0-9._-]+$/;

export const CASE_STUDY_FIELDS = ["title", "note", "tags"] as const;
export type CaseStudyField = (typeof CASE_STUDY_FIELDS)[number];

/** Tag input as typed ("Shell, env  rm-rf") into candidate tags: lower-case, deduplicated, sorted. */
export function splitTags(text: string): string[] {
  const tags = text
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((tag) => tag !== "");
  return [...new Set(tags)].sort();
}

/** Why `tag` (already lower-case) cannot be a tag, or null when it can. */
export function tagProblem(tag: string): string | null {
  const shown = tag.length > 48 ? `${tag.slice(0, 45)}…` : tag;
  if (tag.length === 0) return "a tag cannot be empty";
  if (tag.length > TAG_MAX) return `"${shown}" is longer than ${TAG_MAX} characters`;
  if (!TAG_PATTERN.test(tag)) return `"${shown}" may contain only a-z, 0-9, "-", "_" and "."`;
  return null;
}

export type CaseStudyFieldErrors = FieldErrors<CaseStudyField>;
