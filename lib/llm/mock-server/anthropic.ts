/**
 * Anthropic Messages (`POST /v1/messages`, Claude Code adds `?beta=true`). With `stream: true` the
 * answer is the event sequence the SDKs and Claude Code consume: `message_start`, `ping`, per
 * content block `content_block_start` / `content_block_delta` (`text_delta`, or `input_json_delta`
 * pieces for `tool_use`) / `content_block_stop`, `message_delta` with the stop reason and usage,
 * `message_stop`.
 */
import { z } from "zod";
import { ContentSchema, textOf, type ProtocolAdapter, type ResolvedTurn } from "./adapter";
import { ConversationBuilder, type MockConversation } from "./script";
import { errorKind, sendJson, splitText, startSse } from "./wire";
import { firstIssue } from "@/lib/errors/zod-issues";

const BlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.record(z.string(), z.unknown()).optional(),
  tool_use_id: z.string().optional(),
  content: ContentSchema,
  is_error: z.boolean().optional(),
});

export const AnthropicBodySchema = z.looseObject({
  model: z.string(),
  system: ContentSchema,
  messages: z.array(z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(BlockSchema)]) })),
  tools: z.array(z.looseObject({ name: z.string().optional() })).nullish(),
  stream: z.boolean().nullish(),
  output_config: z
    .looseObject({ format: z.looseObject({ type: z.string(), schema: z.unknown().optional() }).nullish() })
    .nullish(),
});
type Block = z.infer<typeof BlockSchema>;

function conversationOf(body: z.infer<typeof AnthropicBodySchema>): MockConversation {
  const history = new ConversationBuilder();
  for (const message of body.messages) {
    const blocks: Block[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    const text = blocks.flatMap((b) => (b.type === "text" && b.text !== undefined ? [b.text] : [])).join("\n");
    if (message.role === "assistant") {
      const calls = blocks.flatMap((b) =>
        b.type === "tool_use" && b.name ? [{ id: b.id, name: b.name, arguments: b.input ?? {} }] : [],
      );
      history.assistant(text, calls);
      continue;
    }
    for (const block of blocks) {
      if (block.type !== "tool_result") continue;
      history.toolResult({ callId: block.tool_use_id, text: textOf(block.content), isError: block.is_error === true });
    }
    history.user(text);
  }
  return {
    protocol: "anthropic",
    model: body.model,
    stream: body.stream === true,
    system: textOf(body.system),
    messages: history.build(),
    tools: (body.tools ?? []).flatMap((tool) => (tool.name ? [tool.name] : [])),
    responseFormat:
      body.output_config?.format?.type === "json_schema"
        ? { type: "json_schema", schema: body.output_config.format.schema ?? {} }
        : null,
  };
}

function contentOf(turn: ResolvedTurn) {
  return [
    ...(turn.text === "" ? [] : [{ type: "text" as const, text: turn.text }]),
    ...turn.toolCalls.map((call, i) => ({
      type: "tool_use" as const,
      id: `toolu_mock_${turn.serial}_${i}`,
      name: call.name,
      input: call.arguments,
    })),
  ];
}

export const anthropicAdapter: ProtocolAdapter = {
  protocol: "anthropic",

  parse(body) {
    const parsed = AnthropicBodySchema.safeParse(body);
    if (!parsed.success) return { invalid: firstIssue(parsed.error, "body") };
    const conversation = conversationOf(parsed.data);
    return {
      conversation,
      reply(res, turn) {
        const content = contentOf(turn);
        const stopReason = turn.finishReason ?? (turn.toolCalls.length > 0 ? "tool_use" : "end_turn");
        const usage = {
          input_tokens: turn.inputTokens,
          output_tokens: turn.outputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        };
        const message = { id: `msg_mock_${turn.serial}`, type: "message", role: "assistant", model: turn.model };
        if (!conversation.stream) {
          return sendJson(res, 200, { ...message, content, stop_reason: stopReason, stop_sequence: null, usage });
        }
        const sse = startSse(res);
        const emit = (type: string, fields: Record<string, unknown>) => sse.send({ type, ...fields }, type);
        const startUsage = { ...usage, output_tokens: 1 };
        emit("message_start", {
          message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: startUsage },
        });
        emit("ping", {});
        content.forEach((block, index) => {
          if (block.type === "text") {
            emit("content_block_start", { index, content_block: { type: "text", text: "" } });
            for (const text of splitText(block.text)) {
              emit("content_block_delta", { index, delta: { type: "text_delta", text } });
            }
          } else {
            emit("content_block_start", { index, content_block: { ...block, input: {} } });
            for (const partial_json of splitText(JSON.stringify(block.input), 2)) {
              emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
            }
          }
          emit("content_block_stop", { index });
        });
        emit("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage });
        emit("message_stop", {});
        sse.end();
      },
    };
  },

  sendError(res, status, message) {
    sendJson(res, status, { type: "error", error: { type: errorKind(status).anthropic, message } });
  },

  countTokensBody: (tokens) => ({ input_tokens: tokens }),
};
