/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`). With `stream: true`: `data:` chunks whose
 * `delta` carries the role, then `content` pieces, then `tool_calls` (id and name first, the
 * arguments in pieces), a last chunk with `finish_reason`, a usage chunk when
 * `stream_options.include_usage` asks for it, and `data: [DONE]`.
 */
import { z } from "zod";
import { parseToolArguments } from "../providers/http";
import { ContentSchema, textOf, type ProtocolAdapter, type ResolvedTurn } from "./adapter";
import { ConversationBuilder, type MockConversation, type MockResponseFormat } from "./script";
import { errorKind, sendJson, splitText, startSse, unixSeconds } from "./wire";
import { firstIssue } from "@/lib/errors/zod-issues";

export const OpenAiChatBodySchema = z.looseObject({
  model: z.string(),
  messages: z.array(
    z.looseObject({
      role: z.string(),
      content: ContentSchema,
      tool_calls: z
        .array(
          z.looseObject({
            id: z.string().nullish(),
            function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }),
          }),
        )
        .nullish(),
      tool_call_id: z.string().nullish(),
      name: z.string().nullish(),
    }),
  ),
  tools: z.array(z.looseObject({ function: z.looseObject({ name: z.string() }).optional() })).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  response_format: z
    .looseObject({ type: z.string(), json_schema: z.looseObject({ schema: z.unknown().optional() }).nullish() })
    .nullish(),
});

function responseFormatOf(format: z.infer<typeof OpenAiChatBodySchema>["response_format"]): MockResponseFormat {
  if (format?.type === "json_schema") return { type: "json_schema", schema: format.json_schema?.schema ?? {} };
  return format?.type === "json_object" ? { type: "json_object" } : null;
}

function toolCallsOf(turn: ResolvedTurn) {
  return turn.toolCalls.map((call, i) => ({
    id: `call_${turn.serial}_${i}`,
    type: "function" as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

const usageOf = (turn: ResolvedTurn) => ({
  prompt_tokens: turn.inputTokens,
  completion_tokens: turn.outputTokens,
  total_tokens: turn.inputTokens + turn.outputTokens,
});

export const openAiChatAdapter: ProtocolAdapter = {
  protocol: "openai-chat",

  parse(body) {
    const parsed = OpenAiChatBodySchema.safeParse(body);
    if (!parsed.success) return { invalid: firstIssue(parsed.error, "body") };
    const history = new ConversationBuilder();
    const system: string[] = [];
    for (const message of parsed.data.messages) {
      const text = textOf(message.content);
      if (message.role === "system" || message.role === "developer") system.push(text);
      else if (message.role === "assistant") {
        const calls = (message.tool_calls ?? []).map((call) => ({
          id: call.id,
          name: call.function.name,
          arguments: parseToolArguments(call.function.arguments),
        }));
        history.assistant(text, calls);
      } else if (message.role === "tool") {
        history.toolResult({ callId: message.tool_call_id, name: message.name, text, isError: false });
      } else history.user(text);
    }
    const conversation: MockConversation = {
      protocol: "openai-chat",
      model: parsed.data.model,
      stream: parsed.data.stream === true,
      system: system.join("\n\n"),
      messages: history.build(),
      tools: (parsed.data.tools ?? []).flatMap((tool) => (tool.function ? [tool.function.name] : [])),
      responseFormat: responseFormatOf(parsed.data.response_format),
    };
    const includeUsage = parsed.data.stream_options?.include_usage === true;
    return {
      conversation,
      reply(res, turn) {
        const id = `chatcmpl-mock-${turn.serial}`;
        const created = unixSeconds();
        const toolCalls = toolCallsOf(turn);
        const finishReason = turn.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
        if (!conversation.stream) {
          const content = turn.text === "" && toolCalls.length > 0 ? null : turn.text;
          const message = {
            role: "assistant",
            content,
            refusal: null,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          };
          return sendJson(res, 200, {
            id,
            object: "chat.completion",
            created,
            model: turn.model,
            choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
            usage: usageOf(turn),
          });
        }
        const sse = startSse(res);
        const chunk = (delta: unknown, finish: string | null = null) =>
          sse.send({
            id,
            object: "chat.completion.chunk",
            created,
            model: turn.model,
            choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
            ...(includeUsage ? { usage: null } : {}),
          });
        chunk({ role: "assistant", content: "" });
        for (const piece of splitText(turn.text)) chunk({ content: piece });
        toolCalls.forEach((call, index) => {
          chunk({
            tool_calls: [
              { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
            ],
          });
          for (const piece of splitText(call.function.arguments, 2)) {
            chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
          }
        });
        chunk({}, finishReason);
        if (includeUsage) {
          sse.send({
            id,
            object: "chat.completion.chunk",
            created,
            model: turn.model,
            choices: [],
            usage: usageOf(turn),
          });
        }
        sse.sendRaw("[DONE]");
        sse.end();
      },
    };
  },

  sendError(res, status, message) {
    const kind = errorKind(status).openai;
    sendJson(res, status, { error: { message, type: kind, param: null, code: status === 429 ? kind : null } });
  },
};
