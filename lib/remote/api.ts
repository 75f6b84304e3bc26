/**
 * The studio's API for remote workers (app/api/workers/*), its requests and answers as schemas:
 * the routes check what comes in, the worker (lib/remote/remote-store.ts) what comes back.
 */
import { z } from "zod";
import { InstanceSchema } from "@/lib/benchmark/schema";
import { SUBTASK_IDS } from "@/lib/benchmark/subtasks";
import { ShardSchema } from "@/lib/runner/shard";

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex");
const count = z.coerce.number().int().min(1).max(1_000_000);

/** GET /api/workers/plan: which runs of one configuration are still to make. */
export const WorkerPlanQuerySchema = z.object({
  benchmark: z.string().min(1).max(200),
  config: z.string().regex(/^[\w.-]{1,200}$/, "a configuration id"),
  split: z.enum(["eval", "all"]).default("all"),
  subtask: z.enum(SUBTASK_IDS).optional(),
  perSubtask: count.optional(),
  limit: count.optional(),
  shard: ShardSchema.optional(),
  instances: z
    .string()
    .transform((raw) => raw.split(",").filter(Boolean))
    .optional(),
});
export type WorkerPlanQuery = z.input<typeof WorkerPlanQuerySchema>;

export const WorkerPlanSchema = z.object({
  matched: z.number().int().min(0),
  alreadyRun: z.number().int().min(0),
  todo: z.array(z.object({ instanceId: z.string(), runId: z.string() })),
});
export type WorkerPlan = z.infer<typeof WorkerPlanSchema>;

/** GET /api/workers/instance?id=: the instance, its snapshot's digest and its setup by content hash. */
export const WorkerInstanceSchema = z.object({
  instance: InstanceSchema,
  snapshot: Sha256Schema,
  setup: z.array(
    z.union([
      z.object({ path: z.string().min(1), sha256: Sha256Schema }).strict(),
      z.object({ path: z.string().min(1), delete: z.literal(true) }).strict(),
    ]),
  ),
});
export type WorkerInstance = z.infer<typeof WorkerInstanceSchema>;

/** GET /api/workers/snapshot?digest=: the snapshot's files in digest order. */
export const SnapshotManifestSchema = z.object({
  digest: Sha256Schema,
  files: z.array(z.object({ path: z.string().min(1), sha256: Sha256Schema, mode: z.number().int().min(0) })),
});
export type SnapshotManifest = z.infer<typeof SnapshotManifestSchema>;

/** POST /api/workers/contents: contents by hash, answered as a zip whose entries are named by hash. */
export const MAX_CONTENT_HASHES = 5000;
export const ContentsRequestSchema = z.object({ hashes: z.array(Sha256Schema).min(1).max(MAX_CONTENT_HASHES) });
/** An answer stops before this many bytes (at least one content): the worker asks again for the rest. */
export const MAX_CONTENTS_ANSWER_BYTES = 64 * 1024 * 1024;
