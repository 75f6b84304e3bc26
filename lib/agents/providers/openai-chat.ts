/**
 * ChatProvider for OpenAI-compatible Chat Completions (`POST {baseUrl}/chat/completions`): OpenAI,
 * OpenRouter, vLLM and Ollama all speak it. Plain `fetch`, no SDK.
 */
import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, ToolCall } from "../chat";
import { callWithTimeout, generatedCallId, malformedResponse, parseToolArguments, postJson } from "./http";

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
}

const ToolCallSchema = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }),
});

const CompletionSchema = z.looseObject({
  model: z.string().nullish(),
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({ content: z.string().nullish(), tool_calls: z.array(ToolCallSchema).nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.looseObject({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish(),
});

type WireMessage =
  | { role: "system" | "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export function toOpenAiMessages(system: string, messages: ChatMessage[]): WireMessage[] {
  const wire: WireMessage[] = system ? [{ role: "system", content: system }] : [];
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

/** OpenAI's own endpoint wants `max_completion_tokens`; compatible servers reliably know `max_tokens`. */
export function maxTokensFieldFor(baseUrl: string): "max_tokens" | "max_completion_tokens" {
  return new URL(baseUrl).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
}

export function createOpenAiChatProvider(options: OpenAiChatOptions): ChatProvider {
  if (options.apiKey.trim() === "") throw new AppError("INVALID_INPUT", "openai: an API key is required");
  const baseUrl = (options.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const maxTokensField = options.maxTokensField ?? maxTokensFieldFor(baseUrl);

  return {
    name: "openai",
    chat(request: ChatRequest): Promise<ChatResponse> {
      return callWithTimeout("openai", options.timeoutMs, async (signal) => {
        const body = {
          model: request.model,
          messages: toOpenAiMessages(request.system, request.messages),
          ...(request.tools.length > 0
            ? {
                tools: request.tools.map((tool) => ({
                  type: "function",
                  function: { name: tool.name, description: tool.description, parameters: tool.parameters },
                })),
              }
            : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.maxOutputTokens !== undefined ? { [maxTokensField]: request.maxOutputTokens } : {}),
        };
        const started = performance.now();
        const json = await postJson(
          `${baseUrl}/chat/completions`,
          { authorization: `Bearer ${options.apiKey}` },
          body,
          signal,
        );
        const parsed = CompletionSchema.safeParse(json);
        if (!parsed.success) throw malformedResponse("openai", JSON.stringify(json));
        const { choices, usage, model } = parsed.data;
        const choice = choices[0];
        const previousCalls = request.messages.reduce(
          (n, m) => n + (m.role === "assistant" ? m.toolCalls.length : 0),
          0,
        );
        const toolCalls = (choice?.message.tool_calls ?? []).map((call, i): ToolCall => ({
          id: call.id || generatedCallId(previousCalls + i + 1),
          name: call.function.name,
          arguments: parseToolArguments(call.function.arguments),
        }));
        return {
          text: choice?.message.content ?? "",
          toolCalls,
          inputTokens: usage?.prompt_tokens ?? 0,
          outputTokens: usage?.completion_tokens ?? 0,
          model: model ?? request.model,
          latencyMs: Math.round(performance.now() - started),
          finishReason: choice?.finish_reason ?? null,
        };
      });
    },
  };
}
