/**
 * The one entry point to a model, for agents, judges, the paraphraser and the selector: pick the
 * protocol from the configuration, price every answer (tokens x the price table), and wrap any
 * provider with retries of the failures a retry can fix (UNAVAILABLE: 408, 429, 5xx, network,
 * timeouts). Every provider already applies the per-call timeout and normalizes its errors.
 */
import { AppError } from "@/lib/errors/app-error";
import { costOf, DEFAULT_PRICES } from "@/lib/llm/pricing";
import { isRetryableLlmError } from "@/lib/llm/provider";
import { withRetry } from "@/lib/llm/retry";
import type { PriceTable } from "@/lib/llm/schema";
import type { ChatProvider, ChatProviderConfig, ChatRequest, ChatResponse } from "../chat";
import { createAnthropicChatProvider } from "./anthropic";
import { createGeminiChatProvider } from "./gemini";
import { createOpenAiChatProvider } from "./openai-chat";

export { createAnthropicChatProvider, type AnthropicChatOptions } from "./anthropic";
export { createGeminiChatProvider, type GeminiChatOptions } from "./gemini";
export { createOpenAiChatProvider, type OpenAiChatOptions } from "./openai-chat";

function protocolProvider(config: ChatProviderConfig): ChatProvider {
  const options = {
    apiKey: config.apiKey,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
  };
  switch (config.provider) {
    case "gemini":
      return createGeminiChatProvider(options);
    case "openai":
      return createOpenAiChatProvider({ ...options, ...(config.jsonMode ? { jsonMode: config.jsonMode } : {}) });
    case "anthropic":
      return createAnthropicChatProvider(options);
    default:
      throw new AppError(
        "INVALID_INPUT",
        `unknown chat provider: ${String((config as { provider: unknown }).provider)}`,
      );
  }
}

/**
 * The provider a configuration names, each answer priced: `costUsd` from `prices` (merged over
 * DEFAULT_PRICES) for the model that answered, else the model asked for; null when neither has a price.
 */
export function createChatProvider(config: ChatProviderConfig, prices: PriceTable = {}): ChatProvider {
  const provider = protocolProvider(config);
  const table = { ...DEFAULT_PRICES, ...prices };
  return {
    name: provider.name,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const response = await provider.chat(request);
      const costUsd = costOf(table, [response.model, request.model], response.inputTokens, response.outputTokens);
      return { ...response, costUsd };
    },
  };
}

export interface ChatRetryOptions {
  /** Retries after the first attempt (0 = try once). */
  maxRetries: number;
  /** First backoff delay, doubled per retry (with jitter); default 1 s. */
  baseDelayMs?: number;
  /** Cap of one backoff delay; default 30 s. */
  maxDelayMs?: number;
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** Injected for tests; default setTimeout and Math.random. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** The same provider, retrying retryable failures with exponential backoff and jitter. */
export function withRetries(provider: ChatProvider, options: ChatRetryOptions): ChatProvider {
  return {
    name: provider.name,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const { value } = await withRetry(() => provider.chat(request), {
        maxRetries: options.maxRetries,
        baseDelayMs: options.baseDelayMs ?? 1_000,
        maxDelayMs: options.maxDelayMs ?? 30_000,
        isRetryable: isRetryableLlmError,
        ...(options.onRetry ? { onRetry: options.onRetry } : {}),
        ...(options.sleep ? { sleep: options.sleep } : {}),
        ...(options.random ? { random: options.random } : {}),
      });
      return value;
    },
  };
}
