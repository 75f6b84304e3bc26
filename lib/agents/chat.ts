/**
 * The model side of an agent: one chat interface with tool calling, implemented for Gemini
 * (@google/genai), OpenAI-compatible chat completions (OpenAI, OpenRouter, vLLM, Ollama) and
 * Anthropic Messages. Agents speak only this; providers translate to each wire protocol.
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
}

export interface ChatProvider {
  /** gemini | openai | anthropic */
  readonly name: string;
  chat(request: ChatRequest): Promise<ChatResponse>;
}

export interface ChatProviderConfig {
  provider: "gemini" | "openai" | "anthropic";
  apiKey: string;
  /** Protocol endpoint root: Gemini `https://generativelanguage.googleapis.com`, OpenAI `https://api.openai.com/v1`, Anthropic `https://api.anthropic.com`. */
  baseUrl?: string;
  timeoutMs?: number;
}
