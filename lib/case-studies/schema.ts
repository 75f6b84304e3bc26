/**
 * Case studies: a run someone flagged as worth showing, with a title, a note and tags, browsed in
 * the gallery (app/case-studies). What crosses the boundary is checked here: the flag form (a
 * server action, so a public endpoint) and the gallery's URL parameters. Every message names its
 * field, so the form can show it next to that field and a bad link says what is wrong.
 */
import { z } from "zod";
import { parseForm, type FormParse } from "@/lib/errors/zod-issues";
import { NOTE_MAX, splitTags, tagProblem, TAGS_MAX, TITLE_MAX, type CaseStudyField } from "./fields";

/** Raw tag input: 20 tags of 40 characters and their separators fit with room to spare. */
const TAGS_INPUT_MAX = 2_000;

/** One tag as a URL parameter (?tag=) or a stored value. */
export const TagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((tag, ctx) => {
    const problem = tagProblem(tag);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const tagsInput = z
  .string({ error: "Tags must be text" })
  .max(TAGS_INPUT_MAX, `Tags: at most ${TAGS_INPUT_MAX.toLocaleString("en")} characters of input`)
  .optional()
  .transform((text, ctx) => {
    const tags = splitTags(text ?? "");
    const problems = tags.map(tagProblem).filter((p) => p !== null);
    if (tags.length > TAGS_MAX) problems.unshift(`at most ${TAGS_MAX} tags (got ${tags.length})`);
    if (problems.length > 0) ctx.addIssue({ code: "custom", message: `Tags: ${problems.join("; ")}` });
    return tags;
  });

export const CaseStudyInputSchema = z.object({
  title: z
    .string({ error: "Title is required" })
    .trim()
    .min(1, "Title is required")
    .max(TITLE_MAX, `Title: at most ${TITLE_MAX} characters`),
  note: z
    .string({ error: "Note must be text" })
    .trim()
    .max(NOTE_MAX, `Note: at most ${NOTE_MAX.toLocaleString("en")} characters`)
    .optional()
    .transform((note) => note ?? ""),
  tags: tagsInput,
});
/** What the form sends, normalized: trimmed title and note, tags lower-case, deduplicated and sorted. */
export type CaseStudyInput = z.infer<typeof CaseStudyInputSchema>;

/** The form's fields (strings, or absent) into a case study, or one message per bad field. */
export function parseCaseStudyForm(
  raw: Partial<Record<CaseStudyField, unknown>>,
): FormParse<CaseStudyInput, CaseStudyField> {
  return parseForm(CaseStudyInputSchema, raw);
}

/** A run id as a server action receives it (the route decodes it; it names an existing run or nothing). */
export const CaseStudyRunIdSchema = z.string({ error: "missing" }).min(1, "missing").max(300, "too long");

/** The gallery's URL: /case-studies?tag=shell&q=rm -rf */
export const GalleryParamsSchema = z.object({
  tag: TagSchema.optional(),
  q: z.string().max(200, "at most 200 characters").optional(),
});
export type GalleryParams = z.infer<typeof GalleryParamsSchema>;
