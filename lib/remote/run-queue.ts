/**
 * Distributed runs on Redis with BullMQ: one queue job per (instance, agent configuration), one
 * queue per model provider (each with its own global rate limit), and the job's id is the run's
 * deterministic id, so a run queued twice is one job and a run retried elsewhere lands once.
 *
 * The studio's side queues and follows a batch (scripts/run-agents-queue.ts); any number of
 * worker machines take runs (scripts/queue-worker.ts), each executing in its own sandbox and
 * pushing the bundle to the studio (lib/remote/remote-store.ts).
 */
import { z } from "zod";
import { AgentSpecSchema, PROVIDERS, type ProviderName } from "@/lib/agents/agent-spec";
import { AppError } from "@/lib/errors/app-error";

export const RUN_QUEUE_PREFIX = "studio-runs";
export const runQueueName = (provider: ProviderName) => `${RUN_QUEUE_PREFIX}-${provider}`;

/** A Redis URL (redis:// or rediss://) as BullMQ's connection; refused by name when it is not one. */
export function redisConnection(url: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError("INVALID_INPUT", `queue URL "${url}" is not a URL (expected redis://host:6379)`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new AppError("INVALID_INPUT", `queue URL "${url}": expected redis:// or rediss://`);
  // BullMQ's workers block on Redis: a command must wait for a reconnect, not fail after N tries.
  return { url, maxRetriesPerRequest: null };
}

/** What a worker needs to make one run: the agent as resolved on the studio, the instance and the run's id. */
export const RunJobSchema = z.object({
  /** The studio's batch (its jobs-table id, or a random id for a CLI batch): what cancel names. */
  batch: z.string().min(1).max(100),
  benchmark: z.string().min(1),
  agent: AgentSpecSchema,
  mock: z.boolean(),
  seed: z.number().int().min(0),
  instanceId: z.string().min(1),
  runId: z.string().min(1),
  /** The configuration id the studio computed: a worker whose project computes another refuses the job. */
  configId: z.string().min(1),
});
export type RunJob = z.infer<typeof RunJobSchema>;

/** What a finished job returns: how the run ended, or that the studio already had it. */
export const RunJobResultSchema = z.object({
  outcome: z.enum(["completed", "failed", "already in the studio"]),
  worker: z.string(),
});
export type RunJobResult = z.infer<typeof RunJobResultSchema>;

/** Attempts per run: a run that could not be recorded (a push that never got through, a crash) is tried again. */
export const RUN_JOB_ATTEMPTS = 3;
export const RUN_JOB_OPTIONS = {
  attempts: RUN_JOB_ATTEMPTS,
  backoff: { type: "exponential" as const, delay: 5_000 },
  // Kept a while for the record (and so a re-queue of the same run is seen), then dropped.
  removeOnComplete: { age: 7 * 24 * 3600 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

/** The Redis key whose presence cancels a batch: workers stop its active runs, and take no more. */
export const cancelKeyOf = (batch: string) => `${RUN_QUEUE_PREFIX}:cancel:${batch}`;

/** `gemini=60/60,openai=500/60`: at most 60 runs started per 60 s on gemini, across every worker. */
export const RateLimitsSchema = z.string().transform((raw, ctx) => {
  const limits = new Map<ProviderName, { max: number; durationMs: number }>();
  for (const item of raw.split(",").map((s) => s.trim())) {
    const match = /^([a-z]+)=(\d{1,7})\/(\d{1,7})$/.exec(item);
    const provider = match?.[1] as ProviderName | undefined;
    if (!match || !provider || !(PROVIDERS as readonly string[]).includes(provider) || Number(match[2]) < 1) {
      ctx.addIssue({
        code: "custom",
        message: `expected provider=runs/seconds items (providers: ${PROVIDERS.join(", ")}), e.g. gemini=60/60; got "${item}"`,
      });
      return z.NEVER;
    }
    limits.set(provider, { max: Number(match[2]), durationMs: Math.max(1, Number(match[3])) * 1000 });
  }
  return limits;
});
