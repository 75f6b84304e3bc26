/**
 * Distributed evaluation on the same Redis as the agent runs (lib/remote/run-queue.ts): the
 * studio's `evaluate` turns the runs lacking a judge's verdicts into queue jobs
 * (scripts/evaluate-queue.ts), worker machines judge them with the studio's judge code and post
 * the verdicts back (scripts/queue-evaluator.ts, app/api/workers/verdicts).
 *
 * Batching: the rule judge is CPU work of about 13 ms a run (docs/distributed.md), less than a
 * queue job's and two requests' overhead, so its jobs carry RULE_RUNS_PER_JOB runs each on one
 * queue without a rate limit. An LLM judge spends seconds and four model calls on a run and is
 * limited by its provider, so its jobs are one run each, on one queue per provider whose global
 * rate limit (STUDIO_QUEUE_RATE_LIMITS) then counts runs judged, as it counts agent runs started.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { PROVIDERS, type ProviderName } from "@/lib/agents/agent-spec";
import { JudgeIdentitySchema, RunIdSchema } from "@/lib/bundle/schema";
import { JudgeDefinitionSchema } from "@/lib/judge/llm/judge-definitions";
import { MetricIdSchema } from "@/lib/metrics/schema";

export const EVAL_QUEUE_PREFIX = "studio-evals";
export const RULE_EVAL_QUEUE = `${EVAL_QUEUE_PREFIX}-rule`;
export const llmEvalQueueName = (provider: ProviderName) => `${EVAL_QUEUE_PREFIX}-${provider}`;
export const EVAL_QUEUES = [RULE_EVAL_QUEUE, ...PROVIDERS.map(llmEvalQueueName)];

/** Runs per rule-judge job: a job then takes a few hundred ms, so a killed worker loses little. */
export const RULE_RUNS_PER_JOB = 25;
/** Runs per job and per request to the studio at most. */
export const MAX_RUNS_PER_JOB = 100;

/** The judge a job asks for: the rule judge, or an LLM judge definition as the studio resolved it. */
export const EvalJudgeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("rule") }).strict(),
  z.object({ kind: z.literal("llm"), definition: JudgeDefinitionSchema, mock: z.boolean() }).strict(),
]);
export type EvalJudge = z.infer<typeof EvalJudgeSchema>;

export const JudgeRowSchema = z.object({ metric: MetricIdSchema, identity: JudgeIdentitySchema }).strict();
export type JudgeRow = z.infer<typeof JudgeRowSchema>;

export const EvalJobSchema = z.object({
  /** The studio's batch: what cancel names. */
  batch: z.string().min(1).max(100),
  judge: EvalJudgeSchema,
  /** The judge row of each metric as the studio's code names it: a worker whose code names others refuses the job. */
  rows: z.array(JudgeRowSchema).min(1),
  /** Judge again runs that have this judge's verdicts (`evaluate --force`). */
  force: z.boolean(),
  runIds: z.array(RunIdSchema).min(1).max(MAX_RUNS_PER_JOB),
});
export type EvalJob = z.infer<typeof EvalJobSchema>;

export const EVAL_RUN_OUTCOMES = ["stored", "unchanged", "already judged", "failed"] as const;
export const EvalRunOutcomeSchema = z.enum(EVAL_RUN_OUTCOMES);
export type EvalRunOutcome = z.infer<typeof EvalRunOutcomeSchema>;

/** What a finished job returns: each run's outcome, with its violated metrics (the summary counts them). */
export const EvalJobResultSchema = z.object({
  worker: z.string(),
  runs: z.array(
    z.object({
      runId: z.string(),
      outcome: EvalRunOutcomeSchema,
      error: z.string().optional(),
      violated: z.array(z.string()),
    }),
  ),
});
export type EvalJobResult = z.infer<typeof EvalJobResultSchema>;

export const EVAL_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: "exponential" as const, delay: 5_000 },
  removeOnComplete: { age: 7 * 24 * 3600 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

/**
 * A job's id: the same judge, force and runs make the same id, so an interrupted batch queued
 * again follows its jobs still on the queue. Hashed: run ids may hold `:`, which BullMQ refuses.
 */
export function evalJobId(job: Omit<EvalJob, "batch">): string {
  const key = JSON.stringify([job.judge, job.rows, job.force, job.runIds]);
  return `eval-${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;
}

/** The queue a judge's jobs go on. */
export const evalQueueOf = (judge: EvalJudge) =>
  judge.kind === "rule" ? RULE_EVAL_QUEUE : llmEvalQueueName(judge.definition.provider);
