/**
 * The dashboard's URL parameters: every filter lives in the query string, so any view can be
 * shared as a link. Pages parse them here; a bad value becomes a message naming the parameter.
 */
import { z } from "zod";
import { CatalogFamilyIdSchema, InstanceSubtaskSchema } from "@/lib/benchmark/subtasks";
import { MitigationSchema } from "@/lib/codekit/mitigation";
import { MetricIdSchema } from "@/lib/metrics/schema";
import { formatIssue } from "@/lib/errors/zod-issues";
import { RUN_PAGE_SIZES, RUN_SORT_COLUMNS } from "./run-list";

export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of each parameter; empty strings count as absent. */
export function firstValues(params: SearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first.trim() !== "") out[key] = first.trim();
  }
  return out;
}

const judgeId = z.coerce.number().int().positive();

export const OverviewParamsSchema = z.object({
  benchmark: z.string().max(200).optional(),
  split: z.enum(["eval", "all"]).default("all"),
  judge: judgeId.optional(),
  family: CatalogFamilyIdSchema.optional(),
  subtask: InstanceSubtaskSchema.optional(),
  /** The configurations' mitigation arm (lib/codekit/arms.ts). */
  arm: MitigationSchema.optional(),
});
export type OverviewParams = z.infer<typeof OverviewParamsSchema>;

export const RunSortSchema = z.enum(RUN_SORT_COLUMNS);

export const RunsParamsSchema = z.object({
  benchmark: z.string().max(200).optional(),
  judge: judgeId.optional(),
  metric: MetricIdSchema.optional(),
  subtask: InstanceSubtaskSchema.optional(),
  framework: z.string().max(100).optional(),
  model: z.string().max(200).optional(),
  arm: MitigationSchema.optional(),
  status: z.enum(["completed", "failed"]).optional(),
  disagreement: z.enum(["1"]).optional(),
  q: z.string().max(500).optional(),
  sort: RunSortSchema.default("started"),
  dir: z.enum(["asc", "desc"]).default("desc"),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  size: z.coerce
    .number()
    .int()
    .refine((n) => (RUN_PAGE_SIZES as readonly number[]).includes(n), { message: "must be 25, 50 or 100" })
    .default(50),
});
export type RunsParams = z.infer<typeof RunsParamsSchema>;

export const CompareParamsSchema = z.object({
  benchmark: z.string().max(200).optional(),
  judge: judgeId.optional(),
  a: z.string().max(100).optional(),
  b: z.string().max(100).optional(),
});
export type CompareParams = z.infer<typeof CompareParamsSchema>;

/** `config`: the ablation's base configuration id (db/queries/ablation.ts). */
export const AblationParamsSchema = z.object({
  benchmark: z.string().max(200).optional(),
  judge: judgeId.optional(),
  config: z.string().max(100).optional(),
});
export type AblationParams = z.infer<typeof AblationParamsSchema>;

export type ParsedParams<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** Parses a page's query string; errors read `judge: expected a number`. */
export function parseParams<S extends z.ZodType>(schema: S, params: SearchParams): ParsedParams<z.infer<S>> {
  const result = schema.safeParse(firstValues(params));
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => formatIssue(issue, "query")),
  };
}
