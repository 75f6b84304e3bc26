/**
 * Where a provider is reached: the environment variables of its key and endpoint (each vendor
 * SDK's own names), and `openModel`, which gives a caller (a judge, the paraphraser, the selector)
 * a priced provider for a model, or, offline, the same provider pointed at the local mock server
 * with a script.
 */
import { AppError } from "@/lib/errors/app-error";
import type { ChatProvider, ProviderId } from "./chat";
import { startMockModelServer, type MockModelServer, type MockScript } from "./mock-server";
import { createChatProvider } from "./providers";
import type { PriceTable } from "./schema";

export const API_KEY_ENV: Record<ProviderId, string> = {
  gemini: "GEMINI_API_KEY",
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
};

export const BASE_URL_ENV: Record<ProviderId, string> = {
  gemini: "GOOGLE_GEMINI_BASE_URL",
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
};

/** The mock server's endpoint as each protocol's client expects it (OpenAI clients include `/v1`). */
export const mockBaseUrl = (provider: ProviderId, serverUrl: string) =>
  provider === "openai" ? `${serverUrl}/v1` : serverUrl;

export interface OpenModelOptions {
  provider: ProviderId;
  model: string;
  /** Overrides the endpoint from the environment (e.g. `https://api.deepseek.com`, a vLLM server). */
  baseUrl?: string;
  /** The variable holding the key, when not the provider's usual one (e.g. DEEPSEEK_API_KEY). */
  apiKeyEnv?: string;
  env: Record<string, string | undefined>;
  /** Offline: a local mock server answers with this script; the key and endpoint are not read. */
  mock?: MockScript | null;
  timeoutMs?: number;
  prices?: PriceTable;
  /** OpenAI-compatible servers: how structured output is asked for (ChatProviderConfig). */
  jsonMode?: "schema" | "object";
}

export interface OpenModel {
  provider: ChatProvider;
  model: string;
  /** The endpoint in use (the mock server's with `mock`); undefined = the vendor's default. */
  baseUrl: string | undefined;
  close(): Promise<void>;
}

export async function openModel(options: OpenModelOptions): Promise<OpenModel> {
  const { provider: id } = options;
  let server: MockModelServer | null = null;
  let apiKey: string | undefined;
  let baseUrl: string | undefined;
  if (options.mock) {
    apiKey = "mock-key";
    server = await startMockModelServer({ script: options.mock, apiKey });
    baseUrl = mockBaseUrl(id, server.url);
  } else {
    const keyEnv = options.apiKeyEnv ?? API_KEY_ENV[id];
    apiKey = options.env[keyEnv];
    baseUrl = options.baseUrl ?? options.env[BASE_URL_ENV[id]];
    if (!apiKey)
      throw new AppError("INVALID_INPUT", `provider ${id} needs ${keyEnv} (or --mock for the offline scripted model)`);
  }
  const provider = createChatProvider(
    {
      provider: id,
      apiKey,
      ...(baseUrl ? { baseUrl } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.jsonMode ? { jsonMode: options.jsonMode } : {}),
    },
    options.prices,
  );
  return { provider, model: options.model, baseUrl, close: async () => server?.close() };
}
