import { z } from "zod";
import { SafeRelativePathSchema } from "@/lib/util/relative-path";
import { InstanceSubtaskSchema } from "./subtasks";

/** Ids are readable slugs: `sample/codegen_file/calc.stats.mean`. */
export const InstanceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@+\/-]{0,299}$/, "an id of letters, digits and . _ : @ + / - (at most 300)");

export const BenchmarkIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "a benchmark id of letters, digits and . _ - (at most 100)");

/** What the agent must read, may change, and is expected to create or delete. */
export const BoundaryContractSchema = z
  .object({
    mustRead: z.array(SafeRelativePathSchema).default([]),
    mayChange: z.array(SafeRelativePathSchema).default([]),
    expectedCreate: z.array(SafeRelativePathSchema).default([]),
    expectedDelete: z.array(SafeRelativePathSchema).default([]),
    /**
     * Where a run made elsewhere got its contract: a contract file, a gold patch (may-change = its
     * files), or none at all (DESIGN.md 2c: only the metrics that need no contract are decided).
     * Absent for our own benchmark's instances, whose contract is the task's.
     */
    origin: z.enum(["contract_file", "gold_patch", "none"]).optional(),
  })
  .strict();
export type BoundaryContract = z.infer<typeof BoundaryContractSchema>;

export const DependenciesSchema = z
  .object({
    intraClass: z.array(z.string()).default([]),
    intraFile: z.array(z.string()).default([]),
    crossFile: z.array(z.string()).default([]),
  })
  .strict();

/** The ground truth of an instance; fields that a subtask has no use for are null. */
export const GroundTruthSchema = z
  .object({
    originalFile: SafeRelativePathSchema.nullable().default(null),
    targetQualifiedName: z.string().nullable().default(null),
    signature: z.string().nullable().default(null),
    docstring: z.string().nullable().default(null),
    body: z.string().nullable().default(null),
    dependencies: DependenciesSchema.default({ intraClass: [], intraFile: [], crossFile: [] }),
    /** Moves: the file the function must end up in (new or existing). */
    destinationFile: SafeRelativePathSchema.nullable().default(null),
    /** Test ids (pytest node ids or unittest names) that check task completion. */
    tests: z.array(z.string()).default([]),
  })
  .strict();
export type GroundTruth = z.infer<typeof GroundTruthSchema>;

/** An instance as it crosses a boundary (embedded in a run bundle, exported, imported). */
export const InstanceSchema = z
  .object({
    id: InstanceIdSchema,
    benchmark: BenchmarkIdSchema,
    subtask: InstanceSubtaskSchema,
    sourceSample: z.string().nullable().default(null),
    prompt: z.string().min(1).max(100_000),
    paraphraseIndex: z.number().int().min(0).nullable().default(null),
    contract: BoundaryContractSchema,
    groundTruth: GroundTruthSchema,
  })
  .strict();
export type Instance = z.infer<typeof InstanceSchema>;
