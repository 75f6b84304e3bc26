/**
 * Everything the agreement report is computed from: the set's items (with the metrics each asks
 * about), the annotators' submitted labels, the adjudications and the judges' verdicts. The
 * database builds it (db/queries/agreement-report.ts `reportInput`) and the labels export carries
 * it whole, so anyone can recompute the report from an export (lib/agreement/export.ts).
 */
import { z } from "zod";
import { MetricIdSchema, VerdictValueSchema } from "@/lib/metrics/schema";
import { BinaryLabelSchema, HumanLabelSchema, StratumFieldSchema } from "./study-schema";

const IdSchema = z.number().int();

export const ReportSetSchema = z.object({
  id: IdSchema,
  name: z.string(),
  seed: z.number().int().min(0).max(0xffff_ffff),
  /** Items in the set. */
  size: z.number().int().min(0),
  /** k: annotators per item; Fleiss' kappa uses the items with k votes. */
  annotatorsPerItem: z.number().int().min(1),
  strata: z.array(StratumFieldSchema),
});

export const ReportItemSchema = z.object({
  runId: z.string(),
  position: z.number().int(),
  stratum: z.string(),
  /** The metrics this item asks about (lib/agreement/applicability.ts), catalog order. */
  metrics: z.array(MetricIdSchema),
});

export const ReportAnnotatorSchema = z.object({ userId: IdSchema, username: z.string() });

/** A submitted label (drafts of items not yet submitted never reach the report). */
export const ReportLabelSchema = z.object({
  runId: z.string(),
  userId: IdSchema,
  metric: MetricIdSchema,
  value: HumanLabelSchema,
  note: z.string().nullable().default(null),
});

export const ReportAdjudicationSchema = z.object({
  runId: z.string(),
  metric: MetricIdSchema,
  value: BinaryLabelSchema,
  note: z.string().default(""),
});

export const ReportJudgeSchema = z.object({
  id: IdSchema,
  kind: z.string(),
  name: z.string(),
  provider: z.string(),
  model: z.string(),
  promptVersion: z.string(),
});

export const ReportVerdictSchema = z.object({
  runId: z.string(),
  judgeId: IdSchema,
  metric: MetricIdSchema,
  value: VerdictValueSchema,
});

export const ReportInputSchema = z.object({
  set: ReportSetSchema,
  /** In labeling order (position). */
  items: z.array(ReportItemSchema),
  /** The set's annotators; the rater rows of the statistics, in this order. */
  annotators: z.array(ReportAnnotatorSchema),
  labels: z.array(ReportLabelSchema),
  adjudications: z.array(ReportAdjudicationSchema),
  /** Side by side in this order. */
  judges: z.array(ReportJudgeSchema),
  verdicts: z.array(ReportVerdictSchema),
});

export type ReportSet = z.infer<typeof ReportSetSchema>;
export type ReportItem = z.infer<typeof ReportItemSchema>;
export type ReportAnnotator = z.infer<typeof ReportAnnotatorSchema>;
export type ReportLabel = z.input<typeof ReportLabelSchema>;
export type ReportAdjudication = z.input<typeof ReportAdjudicationSchema>;
export type ReportJudge = z.infer<typeof ReportJudgeSchema>;
export type ReportVerdict = z.infer<typeof ReportVerdictSchema>;
export type ReportInput = z.input<typeof ReportInputSchema>;
