/**
 * ChatProvider for OpenAI-compatible Chat Completions (`POST {baseUrl}/chat/completions`) through
 * the official `openai` SDK: OpenAI, DeepSeek, OpenRouter, vLLM and Ollama all speak it. The SDK's
 * own retries stay off: `withRetries` counts attempts once, and `callWithTimeout` owns the timeout.
 */
import OpenAI from "openai";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { AppError } from "@/lib/errors/app-error";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, JsonSchema, ToolCall } from "../chat";
import { callWithTimeout, generatedCallId, malformedResponse, parseToolArguments } from "./http";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface OpenAiChatOptions {
  apiKey: string;
  /** Endpoint root including `/v1` (OpenRouter `https://openrouter.ai/api/v1`, Ollama `http://127.0.0.1:11434/v1`). */
  baseUrl?: string;
  timeoutMs?: number;
  /**
   * OpenAI's reasoning models reject `max_tokens`; older compatible servers only know it.
   * Default: `max_completion_tokens` on api.openai.com, `max_tokens` elsewhere.
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Structured output as a JSON Schema (`schema`) or as any JSON object (`object`); see ChatProviderConfig. */
  jsonMode?: "schema" | "object";
}

export function toOpenAiMessages(system: string, messages: ChatMessage[]): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = system ? [{ role: "system", content: system }] : [];
  for (const message of messages) {
    if (message.role === "user") wire.push({ role: "user", content: message.text });
    else if (message.role === "tool") wire.push({ role: "tool", tool_call_id: message.callId, content: message.text });
    else {
      wire.push({
        role: "assistant",
        // Some servers reject an empty string next to tool calls; null is the documented form.
        content: message.text === "" && message.toolCalls.length > 0 ? null : message.text,
        ...(message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: "function" as const,
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }
          : {}),
      });
    }
  }
  return wire;
}

const hostOf = (baseUrl: string) => new URL(baseUrl).hostname;

/** OpenAI's own endpoint wants `max_completion_tokens`; compatible servers reliably know `max_tokens`. */
export function maxTokensFieldFor(baseUrl: string): "max_tokens" | "max_completion_tokens" {
  return hostOf(baseUrl) === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
}

/** DeepSeek's chat API takes `json_object` but not `json_schema`. */
export function jsonModeFor(baseUrl: string): "schema" | "object" {
  return hostOf(baseUrl) === "api.deepseek.com" ? "object" : "schema";
}

/**
 * OpenAI's strict mode needs every object closed (`additionalProperties: false`) with every
 * property required; other schemas go as non-strict, which compatible servers still honour.
 */
function isStrictCompatible(schema: unknown): boolean {
  if (schema === null || typeof schema !== "object") return true;
  if (Array.isArray(schema)) return schema.every(isStrictCompatible);
  const node = schema as Record<string, unknown>;
  if (node.type === "object") {
    const properties = Object.keys((node.properties as Record<string, unknown> | undefined) ?? {});
    const required = Array.isArray(node.required) ? node.required : [];
    if (node.additionalProperties !== false || properties.some((p) => !required.includes(p))) return false;
  }
  return Object.values(node).every(isStrictCompatible);
}

/** The request's structured-output part: `response_format`, and for `object` mode the schema stated in the system prompt. */
function structuredOutput(system: string, schema: JsonSchema | undefined, mode: "schema" | "object") {
  if (!schema) return { responseFormat: {}, system };
  if (mode === "object") {
    const instruction = `Answer with one JSON object that matches this JSON Schema:\n${JSON.stringify(schema)}`;
    return {
      responseFormat: { response_format: { type: "json_object" as const } },
      system: system ? `${system}\n\n${instruction}` : instruction,
    };
  }
  const json_schema = { name: "answer", schema, strict: isStrictCompatible(schema) };
  return { responseFormat: { response_format: { type: "json_schema" as const, json_schema } }, system };
}

export function createOpenAiChatProvider(options: OpenAiChatOptions): ChatProvider {
  if (options.apiKey.trim() === "") throw new AppError("INVALID_INPUT", "openai: an API key is required");
  const baseUrl = (options.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const maxTokensField = options.maxTokensField ?? maxTokensFieldFor(baseUrl);
  const jsonMode = options.jsonMode ?? jsonModeFor(baseUrl);
  const client = new OpenAI({ apiKey: options.apiKey, baseURL: baseUrl, maxRetries: 0 });

  return {
    name: "openai",
    chat(request: ChatRequest): Promise<ChatResponse> {
      return callWithTimeout("openai", options.timeoutMs, async (signal) => {
        const { responseFormat, system } = structuredOutput(request.system, request.responseJsonSchema, jsonMode);
        const body: ChatCompletionCreateParamsNonStreaming = {
          model: request.model,
          messages: toOpenAiMessages(system, request.messages),
          ...(request.tools.length > 0
            ? {
                tools: request.tools.map((tool) => ({
                  type: "function" as const,
                  function: { name: tool.name, description: tool.description, parameters: tool.parameters },
                })),
              }
            : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.maxOutputTokens !== undefined ? { [maxTokensField]: request.maxOutputTokens } : {}),
          ...responseFormat,
        };
        const started = performance.now();
        const completion = await client.chat.completions.create(body, { signal });
        // The SDK returns whatever JSON came; a compatible server may answer 200 with an error body.
        if (!Array.isArray(completion.choices) || completion.choices.length === 0)
          throw malformedResponse("openai", completion);
        const choice = completion.choices[0];
        const previousCalls = request.messages.reduce(
          (n, m) => n + (m.role === "assistant" ? m.toolCalls.length : 0),
          0,
        );
        const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call, i): ToolCall[] =>
          call.type === "function"
            ? [
                {
                  id: call.id || generatedCallId(previousCalls + i + 1),
                  name: call.function.name,
                  arguments: parseToolArguments(call.function.arguments),
                },
              ]
            : [],
        );
        return {
          text: choice?.message.content ?? "",
          toolCalls,
          inputTokens: completion.usage?.prompt_tokens ?? 0,
          outputTokens: completion.usage?.completion_tokens ?? 0,
          model: completion.model || request.model,
          latencyMs: Math.round(performance.now() - started),
          finishReason: choice?.finish_reason ?? null,
        };
      });
    },
  };
}
