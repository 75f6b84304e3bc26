/**
 * ChatProvider for Gemini through the official `@google/genai` SDK (generateContent with function
 * declarations; structured output as `responseMimeType: application/json` with
 * `responseJsonSchema`). Tool results go back as `functionResponse` parts in a "user" content, as
 * the API requires. The SDK's own retries stay off (its default): `withRetries` counts attempts
 * once. Without `baseUrl` the SDK talks to Google (or GOOGLE_GEMINI_BASE_URL).
 */
import { GoogleGenAI, type Content, type GenerateContentConfig, type Part } from "@google/genai";
import { AppError } from "@/lib/errors/app-error";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, ToolCall } from "../chat";
import { callWithTimeout, generatedCallId } from "./http";

export interface GeminiChatOptions {
  apiKey: string;
  /** e.g. `http://127.0.0.1:PORT` of the mock server; unset = Google's endpoint. */
  baseUrl?: string;
  timeoutMs?: number;
}

/**
 * Thinking models attach a `thoughtSignature` to function-call parts and Gemini 3 rejects a
 * history whose calls lack it. ChatMessage has no field for it, so it is remembered per ToolCall
 * object: the agent loop puts the very objects it received back into the history.
 */
const signatures = new WeakMap<ToolCall, string>();

function mergeAdjacent(contents: Content[]): Content[] {
  const merged: Content[] = [];
  for (const content of contents) {
    const last = merged.at(-1);
    if (last && last.role === content.role) last.parts = [...(last.parts ?? []), ...(content.parts ?? [])];
    else merged.push({ role: content.role, parts: [...(content.parts ?? [])] });
  }
  return merged;
}

/** Our messages as Gemini contents; consecutive same-role contents are merged (one turn each). */
export function toGeminiContents(messages: ChatMessage[]): Content[] {
  const contents: Content[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      contents.push({ role: "user", parts: [{ text: message.text }] });
    } else if (message.role === "assistant") {
      const parts: Part[] = message.text === "" ? [] : [{ text: message.text }];
      for (const call of message.toolCalls) {
        const signature = signatures.get(call);
        parts.push({
          functionCall: { id: call.id, name: call.name, args: call.arguments },
          ...(signature ? { thoughtSignature: signature } : {}),
        });
      }
      if (parts.length > 0) contents.push({ role: "model", parts });
    } else {
      const response = message.isError ? { error: message.text } : { output: message.text };
      contents.push({
        role: "user",
        parts: [{ functionResponse: { id: message.callId, name: message.name, response } }],
      });
    }
  }
  return mergeAdjacent(contents);
}

const callsIn = (messages: ChatMessage[]) =>
  messages.reduce((n, m) => n + (m.role === "assistant" ? m.toolCalls.length : 0), 0);

export function createGeminiChatProvider(options: GeminiChatOptions): ChatProvider {
  if (options.apiKey.trim() === "") throw new AppError("INVALID_INPUT", "gemini: an API key is required");
  const ai = new GoogleGenAI({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { httpOptions: { baseUrl: options.baseUrl } } : {}),
  });

  return {
    name: "gemini",
    chat(request: ChatRequest): Promise<ChatResponse> {
      return callWithTimeout("gemini", options.timeoutMs, async (abortSignal) => {
        const config: GenerateContentConfig = {
          abortSignal,
          ...(request.system ? { systemInstruction: request.system } : {}),
          ...(request.tools.length > 0
            ? {
                tools: [
                  {
                    functionDeclarations: request.tools.map((tool) => ({
                      name: tool.name,
                      description: tool.description,
                      parametersJsonSchema: tool.parameters,
                    })),
                  },
                ],
              }
            : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
          ...(request.responseJsonSchema
            ? { responseMimeType: "application/json", responseJsonSchema: request.responseJsonSchema }
            : {}),
        };
        const started = performance.now();
        const response = await ai.models.generateContent({
          model: request.model,
          contents: toGeminiContents(request.messages),
          config,
        });
        const candidate = response.candidates?.[0];
        // Read the parts directly: the SDK's `text` getter warns when function calls are present.
        const parts = candidate?.content?.parts ?? [];
        const text = parts
          .filter((part) => typeof part.text === "string" && part.thought !== true)
          .map((part) => part.text)
          .join("");
        // Generated ids count every call of the conversation, so they stay unique across turns.
        let nextId = callsIn(request.messages);
        const toolCalls = parts.flatMap((part): ToolCall[] => {
          const call = part.functionCall;
          if (!call?.name) return [];
          nextId += 1;
          const toolCall: ToolCall = {
            id: call.id || generatedCallId(nextId),
            name: call.name,
            arguments: call.args ?? {},
          };
          if (part.thoughtSignature) signatures.set(toolCall, part.thoughtSignature);
          return [toolCall];
        });
        const usage = response.usageMetadata;
        const finishReason = candidate?.finishReason ?? response.promptFeedback?.blockReason;
        return {
          text,
          toolCalls,
          inputTokens: usage?.promptTokenCount ?? 0,
          outputTokens: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
          model: response.modelVersion ?? request.model,
          latencyMs: Math.round(performance.now() - started),
          finishReason: finishReason ? String(finishReason) : null,
        };
      });
    },
  };
}
