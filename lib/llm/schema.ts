/**
 * What crosses the LLM provider boundary: one request (system instruction + user prompt, optional
 * JSON schema for structured output) and one normalized response with token usage.
 */
import { z } from "zod";

export const LlmRequestSchema = z
  .object({
    model: z.string().min(1).max(200),
    system: z.string(),
    prompt: z.string().min(1),
    /** JSON Schema of the answer; when present the provider asks for JSON output (structured output). */
    responseJsonSchema: z.record(z.string(), z.unknown()).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().positive().optional(),
  })
  .strict();
export type LlmRequest = z.infer<typeof LlmRequestSchema>;

export const LlmResponseSchema = z
  .object({
    /** The model's text (for JSON mode: the JSON document, unparsed). */
    text: z.string(),
    inputTokens: z.number().int().min(0),
    /** Billed output tokens: candidates plus thinking tokens. */
    outputTokens: z.number().int().min(0),
    /** The model that answered, as the provider reports it (falls back to the requested model). */
    model: z.string(),
    latencyMs: z.number().min(0),
    /** Why generation stopped (`STOP`, `MAX_TOKENS`, `SAFETY`, ...), where the provider says. */
    finishReason: z.string().optional(),
  })
  .strict();
export type LlmResponse = z.infer<typeof LlmResponseSchema>;

/** USD per one million tokens. */
export const ModelPriceSchema = z
  .object({
    inputPerMillion: z.number().min(0),
    outputPerMillion: z.number().min(0),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

export const PriceTableSchema = z.record(z.string().min(1), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;
