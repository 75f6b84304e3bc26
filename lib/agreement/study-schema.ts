/**
 * What crosses the boundary of the agreement study: an annotator's label, an admin's
 * adjudication, the form that creates an agreement set, and the design stored with the set. Server
 * actions parse their input with these; the database layer parses again before writing, because
 * a label is the one thing annotators send in bulk.
 */
import { z } from "zod";
import { MetricIdSchema } from "@/lib/metrics/schema";

/** What an annotator can say about one metric of one run. */
export const HUMAN_LABELS = ["violated", "not_violated", "cannot_tell"] as const;
export const HumanLabelSchema = z.enum(HUMAN_LABELS, {
  error: (issue) => `must be violated, not_violated or cannot_tell (got ${JSON.stringify(issue.input)})`,
});
export type HumanLabel = z.infer<typeof HumanLabelSchema>;

/**
 * The categories of every statistic of the study. "cannot_tell" is not one of them: it is an
 * abstention, counted as no vote (see lib/agreement/item-majority.ts).
 */
export const BINARY_LABELS = ["violated", "not_violated"] as const;
export const BinaryLabelSchema = z.enum(BINARY_LABELS, {
  error: (issue) => `must be violated or not_violated (got ${JSON.stringify(issue.input)})`,
});
export type BinaryLabel = z.infer<typeof BinaryLabelSchema>;

/** What a run can be stratified by when sampling an agreement set. */
export const STRATUM_FIELDS = ["subtask", "framework", "model"] as const;
export const StratumFieldSchema = z.enum(STRATUM_FIELDS);
export type StratumField = z.infer<typeof StratumFieldSchema>;

export const RATIONALE_MAX = 4_000;
export const SET_NAME_MAX = 120;
export const DEFAULT_SET_SIZE = 200;
export const DEFAULT_ANNOTATORS_PER_ITEM = 3;

const RationaleSchema = z
  .string({ error: "must be text" })
  .max(RATIONALE_MAX, { error: `must be at most ${RATIONALE_MAX} characters` });

/** One metric's label as the labeling workspace autosaves it. `note` undefined keeps the saved one. */
export const LabelInputSchema = z.strictObject({
  metric: MetricIdSchema,
  value: HumanLabelSchema,
  note: RationaleSchema.optional(),
});
export type LabelInput = z.infer<typeof LabelInputSchema>;

/** An admin's final label for an item and metric; kept apart from the annotators' votes. */
export const AdjudicationInputSchema = z.strictObject({
  metric: MetricIdSchema,
  value: BinaryLabelSchema,
  note: RationaleSchema.default(""),
});
export type AdjudicationInput = z.input<typeof AdjudicationInputSchema>;

const Uint32Schema = z
  .number({ error: "must be a number" })
  .int({ error: "must be a whole number" })
  .min(0, { error: "must be between 0 and 4294967295" })
  .max(0xffff_ffff, { error: "must be between 0 and 4294967295" });

const IdSchema = z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).positive();

function unique<T>(values: readonly T[]): boolean {
  return new Set(values).size === values.length;
}

/** The "new agreement set" form. */
export const AgreementSetInputSchema = z.strictObject({
  name: z
    .string({ error: "must be text" })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(SET_NAME_MAX, { error: `must be at most ${SET_NAME_MAX} characters` }),
  seed: Uint32Schema,
  size: z.number().int().min(1).max(10_000).default(DEFAULT_SET_SIZE),
  /** Empty: one stratum, a simple random sample. */
  strata: z
    .array(StratumFieldSchema)
    .refine(unique, { error: "must not repeat a field" })
    .default([...STRATUM_FIELDS]),
  annotatorsPerItem: z.number().int().min(1).max(20).default(DEFAULT_ANNOTATORS_PER_ITEM),
  revealAfterSubmit: z.boolean().default(true),
  annotatorIds: z
    .array(IdSchema)
    .min(1, { error: "must name at least one annotator" })
    .refine(unique, { error: "must not repeat an annotator" }),
  /** Only runs of this benchmark. */
  benchmarkId: z.string().min(1).optional(),
  /** The judges the study compares: only runs every one of them has judged are drawn. */
  judgeIds: z.array(IdSchema).refine(unique, { error: "must not repeat a judge" }).default([]),
  /** Whose `not_applicable` decides which metrics an item asks for; default the latest rule judge. */
  ruleJudgeId: IdSchema.optional(),
  /** Scale-test runs (`seed:scale`) are never real agent runs, so they are left out unless asked. */
  includeSynthetic: z.boolean().default(false),
});
export type AgreementSetInput = z.input<typeof AgreementSetInputSchema>;
export type AgreementSetOptions = z.output<typeof AgreementSetInputSchema>;

export const StratumAllocationSchema = z.object({
  stratum: z.string(),
  population: z.number().int().min(0),
  sampled: z.number().int().min(0),
});
export type StratumAllocation = z.infer<typeof StratumAllocationSchema>;

/** How a set was drawn, stored in agreement_sets.design: enough to draw the same sample again. */
export const AgreementSetDesignSchema = z.object({
  version: z.literal(1),
  strata: z.array(StratumFieldSchema),
  requestedSize: z.number().int(),
  filters: z.object({
    benchmarkId: z.string().nullable(),
    judgeIds: z.array(z.number().int()),
    includeSynthetic: z.boolean(),
  }),
  ruleJudgeId: z.number().int().nullable(),
  /** Runs that matched the filters. */
  population: z.number().int(),
  allocation: z.array(StratumAllocationSchema),
});
export type AgreementSetDesign = z.infer<typeof AgreementSetDesignSchema>;
