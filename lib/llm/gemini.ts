/**
 * Gemini through the official `@google/genai` SDK. With a real key and no `baseUrl` this talks to
 * generativelanguage.googleapis.com; tests and the offline demo point `baseUrl` at the mock server
 * (mock-gemini-server.ts), which speaks the same REST protocol. The SDK's own retries stay off
 * (its default when `retryOptions` is unset): the judge retries, so attempts are counted once.
 */
import { GoogleGenAI, type GenerateContentConfig } from "@google/genai";
import { AppError } from "@/lib/errors/app-error";
import { normalizeLlmError, type LlmProvider } from "./provider";
import { LlmRequestSchema, type LlmRequest, type LlmResponse } from "./schema";

export interface GeminiProviderOptions {
  apiKey: string;
  /** e.g. `http://127.0.0.1:PORT` of the mock server; unset = Google's endpoint (or GOOGLE_GEMINI_BASE_URL). */
  baseUrl?: string;
  /** Per-attempt timeout; unset = no timeout. */
  timeoutMs?: number;
}

export function createGeminiProvider(options: GeminiProviderOptions): LlmProvider {
  if (options.apiKey.trim() === "") throw new AppError("INVALID_INPUT", "gemini: an API key is required");
  const ai = new GoogleGenAI({
    apiKey: options.apiKey,
    httpOptions: {
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
    },
  });

  return {
    name: "gemini",
    async generate(request: LlmRequest): Promise<LlmResponse> {
      const parsed = LlmRequestSchema.safeParse(request);
      if (!parsed.success) throw new AppError("INVALID_INPUT", `gemini: invalid request: ${parsed.error.message}`);
      const { model, system, prompt, responseJsonSchema, temperature, maxOutputTokens } = parsed.data;
      const config: GenerateContentConfig = {
        ...(system ? { systemInstruction: system } : {}),
        ...(responseJsonSchema ? { responseMimeType: "application/json", responseJsonSchema } : {}),
        ...(temperature !== undefined ? { temperature } : {}),
        ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
      };
      const started = performance.now();
      try {
        const response = await ai.models.generateContent({ model, contents: prompt, config });
        const usage = response.usageMetadata;
        const candidate = response.candidates?.[0];
        const finishReason = candidate?.finishReason ?? response.promptFeedback?.blockReason;
        return {
          // Blocked prompts and empty candidates come back as empty text: the judge stores them
          // as invalid with the finish reason, rather than failing the run.
          text: response.text ?? "",
          inputTokens: usage?.promptTokenCount ?? 0,
          outputTokens: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
          model: response.modelVersion ?? model,
          latencyMs: Math.round(performance.now() - started),
          ...(finishReason ? { finishReason: String(finishReason) } : {}),
        };
      } catch (error) {
        throw normalizeLlmError("gemini", error);
      }
    },
  };
}
