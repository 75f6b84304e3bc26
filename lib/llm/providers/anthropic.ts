/**
 * ChatProvider for the Anthropic Messages API (`POST {baseUrl}/v1/messages`) through the official
 * `@anthropic-ai/sdk`. Tool calls are `tool_use` blocks of the assistant; their results go back as
 * `tool_result` blocks of a user message; structured output is `output_config.format`
 * (`json_schema`). The SDK's own retries stay off: `withRetries` counts attempts once.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsNonStreaming, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { AppError } from "@/lib/errors/app-error";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, ToolCall } from "../chat";
import { callWithTimeout, malformedResponse } from "./http";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
/** The API requires `max_tokens`; used when the request sets no `maxOutputTokens`. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

export interface AnthropicChatOptions {
  apiKey: string;
  /** Endpoint root without `/v1`, e.g. `http://127.0.0.1:PORT` of the mock server. */
  baseUrl?: string;
  timeoutMs?: number;
}

type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content: string; is_error?: boolean };

interface WireMessage {
  role: "user" | "assistant";
  content: Block[];
}

/**
 * Our messages as Anthropic messages. Roles must alternate and all results of one assistant turn
 * belong in one user message, so adjacent same-role messages are merged. Empty text blocks are
 * rejected by the API and are left out.
 */
export function toAnthropicMessages(messages: ChatMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  const push = (role: WireMessage["role"], content: Block[]) => {
    if (content.length === 0) return;
    const last = wire.at(-1);
    if (last?.role === role) last.content.push(...content);
    else wire.push({ role, content });
  };
  for (const message of messages) {
    if (message.role === "user") {
      push("user", message.text.trim() === "" ? [] : [{ type: "text", text: message.text }]);
    } else if (message.role === "tool") {
      push("user", [
        {
          type: "tool_result",
          tool_use_id: message.callId,
          content: message.text,
          ...(message.isError ? { is_error: true } : {}),
        },
      ]);
    } else {
      push("assistant", [
        ...(message.text.trim() === "" ? [] : [{ type: "text" as const, text: message.text }]),
        ...message.toolCalls.map((call) => ({
          type: "tool_use" as const,
          id: call.id,
          name: call.name,
          input: call.arguments,
        })),
      ]);
    }
  }
  return wire;
}

export function createAnthropicChatProvider(options: AnthropicChatOptions): ChatProvider {
  if (options.apiKey.trim() === "") throw new AppError("INVALID_INPUT", "anthropic: an API key is required");
  const baseUrl = (options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const client = new Anthropic({ apiKey: options.apiKey, baseURL: baseUrl, maxRetries: 0 });

  return {
    name: "anthropic",
    chat(request: ChatRequest): Promise<ChatResponse> {
      return callWithTimeout("anthropic", options.timeoutMs, async (signal) => {
        const body: MessageCreateParamsNonStreaming = {
          model: request.model,
          max_tokens: request.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
          ...(request.system ? { system: request.system } : {}),
          messages: toAnthropicMessages(request.messages) as MessageParam[],
          ...(request.tools.length > 0
            ? {
                tools: request.tools.map((tool) => ({
                  name: tool.name,
                  description: tool.description,
                  input_schema: tool.parameters as Anthropic.Tool.InputSchema,
                })),
              }
            : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.responseJsonSchema
            ? { output_config: { format: { type: "json_schema" as const, schema: request.responseJsonSchema } } }
            : {}),
        };
        const started = performance.now();
        const message = await client.messages.create(body, { signal });
        // The SDK returns whatever JSON came; a proxy may answer 200 with another shape.
        if (!Array.isArray(message.content)) throw malformedResponse("anthropic", message);
        const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
        const toolCalls = message.content.flatMap((block): ToolCall[] =>
          block.type === "tool_use"
            ? [{ id: block.id, name: block.name, arguments: (block.input ?? {}) as Record<string, unknown> }]
            : [],
        );
        const usage = message.usage;
        return {
          text,
          toolCalls,
          // `input_tokens` excludes prompt-cache reads and writes; all of them were read by the model.
          inputTokens:
            (usage?.input_tokens ?? 0) +
            (usage?.cache_creation_input_tokens ?? 0) +
            (usage?.cache_read_input_tokens ?? 0),
          outputTokens: usage?.output_tokens ?? 0,
          model: message.model || request.model,
          latencyMs: Math.round(performance.now() - started),
          finishReason: message.stop_reason ?? null,
        };
      });
    },
  };
}
