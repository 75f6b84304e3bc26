/**
 * The one model interface of the project: agents, judges, the paraphraser and the Code-KIT
 * selector all speak it. A chat with tool calling and optional structured output, implemented
 * once per protocol in providers/: Gemini (@google/genai), Anthropic Messages (@anthropic-ai/sdk)
 * and OpenAI-compatible chat completions (openai: OpenAI, DeepSeek, OpenRouter, vLLM, Ollama).
 */

/** A JSON Schema object describing a tool's arguments. */
export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ToolCall {
  /** Provider's call id (generated when the protocol has none, e.g. Gemini). */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ChatMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: ToolCall[] }
  | { role: "tool"; callId: string; name: string; text: string; isError: boolean };

export interface ChatRequest {
  model: string;
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  temperature?: number;
  maxOutputTokens?: number;
  /** JSON Schema of the answer: the provider asks for JSON output matching it (structured output). */
  responseJsonSchema?: JsonSchema;
}

export interface ChatResponse {
  text: string;
  toolCalls: ToolCall[];
  inputTokens: number;
  outputTokens: number;
  /** Model version the server reported (e.g. "mock-model" for the scripted server). */
  model: string;
  latencyMs: number;
  finishReason: string | null;
  /** USD for this call from the price table; null when the model has no price (set by createChatProvider). */
  costUsd?: number | null;
}

export interface ChatProvider {
  /** gemini | openai | anthropic */
  readonly name: string;
  chat(request: ChatRequest): Promise<ChatResponse>;
}

export interface ChatProviderConfig {
  provider: ProviderId;
  apiKey: string;
  /** Protocol endpoint root: Gemini `https://generativelanguage.googleapis.com`, OpenAI `https://api.openai.com/v1`, Anthropic `https://api.anthropic.com`. */
  baseUrl?: string;
  timeoutMs?: number;
  /**
   * OpenAI-compatible servers only: how to ask for structured output. `schema` sends the JSON
   * Schema (`response_format: json_schema`: OpenAI, OpenRouter, vLLM, Ollama); `object` asks for
   * any JSON object and puts the schema in the system prompt (DeepSeek knows only `json_object`).
   * Default: `object` on api.deepseek.com, `schema` elsewhere.
   */
  jsonMode?: "schema" | "object";
}

export const PROVIDER_IDS = ["gemini", "openai", "anthropic"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** The model used when a configuration names none. */
export const DEFAULT_MODELS: Record<ProviderId, string> = {
  gemini: "gemini-2.5-flash",
  openai: "gpt-5",
  anthropic: "claude-sonnet-4-5",
};
