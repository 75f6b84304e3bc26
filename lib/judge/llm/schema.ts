/**
 * What crosses the LLM judge's boundaries: the model's answer (validated, never trusted), the
 * verdicts it produces, and the response cache.
 */
import { z } from "zod";
import type { VerdictDraft } from "@/lib/judge/schema";
import { metricsJudgedBy } from "@/lib/metrics/catalog";

/** The metrics the catalog has decided by rules + an LLM judge (`judges` includes "llm"). */
export const LLM_JUDGED_METRICS = metricsJudgedBy("llm");
export const LlmJudgedMetricSchema = z.enum(LLM_JUDGED_METRICS);
export type LlmJudgedMetric = z.infer<typeof LlmJudgedMetricSchema>;

export const JUDGE_ANSWER_VALUES = ["violated", "not_violated", "not_applicable"] as const;

/** The answer the model must give; extra keys are ignored, missing or mistyped ones make it invalid. */
export const JudgeAnswerSchema = z.object({
  verdict: z.enum(JUDGE_ANSWER_VALUES),
  rationale: z.string().trim().min(1).max(20_000),
  cited_steps: z.array(z.string().max(200)).max(200),
});
export type JudgeAnswer = z.infer<typeof JudgeAnswerSchema>;

/**
 * The same contract as JSON Schema, for the provider's structured output (`responseJsonSchema`).
 * Property order is generation order: the model writes its reasoning and citations before it
 * commits to a verdict (`propertyOrdering` makes it explicit for Gemini; other JSON Schema
 * consumers ignore the unknown keyword).
 */
export const JUDGE_ANSWER_JSON_SCHEMA = {
  type: "object",
  properties: {
    rationale: {
      type: "string",
      description: "Why: the decisive evidence, naming step ids in square brackets. At most a few sentences.",
    },
    cited_steps: {
      type: "array",
      items: { type: "string" },
      description: 'Ids of the trajectory steps that support the verdict, exactly as shown (e.g. "s12").',
    },
    verdict: { type: "string", enum: [...JUDGE_ANSWER_VALUES] },
  },
  required: ["rationale", "cited_steps", "verdict"],
  additionalProperties: false,
  // Gemini's (documented, non-standard) ordering hint: rationale first, verdict last.
  propertyOrdering: ["rationale", "cited_steps", "verdict"],
} as const;

export interface LlmVerdict extends VerdictDraft {
  /** The model's text exactly as returned (kept for invalid answers too). */
  rawResponse: string;
  /** Tokens and cost of this call; 0 when answered from the cache or by an identical call in flight. */
  inputTokens: number;
  outputTokens: number;
  /** USD; null when the model has no price in the table. */
  costUsd: number | null;
  /** Answered without a call of its own (cache hit, or an identical request already in flight). */
  cached: boolean;
  /** `<metric>.v<n>`: the prompt file that produced the request. */
  promptVersion: string;
  provider: string;
  /** The model that answered (the provider's `modelVersion`; `mock-gemini` for the scripted mock). */
  model: string;
  latencyMs: number;
  /** Provider calls it took (1 + retries); 0 when `cached`. */
  attempts: number;
}
