/**
 * OpenAI Responses (`POST /v1/responses`), the protocol of Codex CLI. Input items (`message`,
 * `function_call`, `function_call_output`, `custom_tool_call`[_output]) become the neutral history.
 * With `stream: true` the answer is the event sequence Codex consumes: `response.created`,
 * `response.output_item.added`, text or argument deltas, `response.output_item.done`, and
 * `response.completed` carrying the usage. A call to a tool declared `type: "custom"` (Codex's
 * freeform apply_patch) is answered as a `custom_tool_call` whose input is `arguments.input`; the
 * functions of a `namespace` tool (Codex's MCP servers) are offered and called as `<namespace>__<name>`.
 */
import { z } from "zod";
import { parseToolArguments } from "../providers/http";
import { ContentSchema, textOf, type ProtocolAdapter, type ResolvedTurn } from "./adapter";
import { ConversationBuilder, type MockConversation } from "./script";
import { errorKind, sendJson, splitText, startSse, unixSeconds } from "./wire";
import { firstIssue } from "@/lib/errors/zod-issues";

const ItemSchema = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: ContentSchema,
  call_id: z.string().nullish(),
  name: z.string().nullish(),
  namespace: z.string().nullish(),
  arguments: z.string().nullish(),
  input: z.string().nullish(),
  output: ContentSchema,
});

export const OpenAiResponsesBodySchema = z.looseObject({
  model: z.string(),
  instructions: z.string().nullish(),
  input: z.union([z.string(), z.array(ItemSchema)]),
  tools: z
    .array(
      z.looseObject({
        type: z.string().optional(),
        name: z.string().optional(),
        tools: z.array(z.looseObject({ type: z.string().optional(), name: z.string().optional() })).optional(),
      }),
    )
    .nullish(),
  stream: z.boolean().nullish(),
  text: z
    .looseObject({ format: z.looseObject({ type: z.string(), schema: z.unknown().optional() }).nullish() })
    .nullish(),
});
type Body = z.infer<typeof OpenAiResponsesBodySchema>;

/**
 * A function inside a `namespace` tool (Codex offers an MCP server's tools as namespace
 * `mcp__<server>`), as scripts see and call it: `<namespace>__<name>`, the name Claude Code gives
 * the same MCP tool. Its call goes out as `{name, namespace}`.
 */
const namespacedName = (namespace: string, name: string) => `${namespace}__${name}`;

/** The tools a script can call, by name: plain, custom (freeform) or inside a namespace. */
function offeredTools(body: Body): Map<string, { custom: boolean; namespace?: string; name: string }> {
  const offered = new Map<string, { custom: boolean; namespace?: string; name: string }>();
  for (const tool of body.tools ?? []) {
    if (tool.type === "namespace" && tool.name) {
      for (const inner of tool.tools ?? [])
        if (inner.name)
          offered.set(namespacedName(tool.name, inner.name), { custom: false, namespace: tool.name, name: inner.name });
    } else if (tool.name) offered.set(tool.name, { custom: tool.type === "custom", name: tool.name });
  }
  return offered;
}

function conversationOf(body: Body): MockConversation {
  const history = new ConversationBuilder();
  const system = body.instructions ? [body.instructions] : [];
  const items = typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : body.input;
  for (const item of items) {
    const type = item.type ?? "message";
    if (type === "message") {
      const text = textOf(item.content);
      if (item.role === "assistant") history.assistant(text, []);
      else if (item.role === "system" || item.role === "developer") system.push(text);
      else history.user(text);
    } else if ((type === "function_call" || type === "custom_tool_call") && item.name) {
      const args = type === "function_call" ? parseToolArguments(item.arguments) : { input: item.input ?? "" };
      const name = item.namespace ? namespacedName(item.namespace, item.name) : item.name;
      history.assistant("", [{ id: item.call_id, name, arguments: args }]);
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      history.toolResult({ callId: item.call_id, text: textOf(item.output), isError: false });
    }
    // reasoning and other item types carry nothing a script needs
  }
  return {
    protocol: "openai-responses",
    model: body.model,
    stream: body.stream === true,
    system: system.join("\n\n"),
    messages: history.build(),
    tools: [...offeredTools(body).keys()],
    responseFormat:
      body.text?.format?.type === "json_schema"
        ? { type: "json_schema", schema: body.text.format.schema ?? {} }
        : body.text?.format?.type === "json_object"
          ? { type: "json_object" }
          : null,
  };
}

type OutputItem = Record<string, unknown> & { id: string; type: string };

function outputItems(turn: ResolvedTurn, tools: ReturnType<typeof offeredTools>): OutputItem[] {
  const rid = `resp_mock_${turn.serial}`;
  const items: OutputItem[] = [];
  if (turn.text !== "") {
    const content = [{ type: "output_text", text: turn.text, annotations: [] }];
    items.push({ type: "message", id: `msg_${rid}`, status: "completed", role: "assistant", content });
  }
  turn.toolCalls.forEach((call, i) => {
    const callId = `call_${rid}_${i}`;
    const tool = tools.get(call.name);
    if (tool?.custom) {
      const input = typeof call.arguments.input === "string" ? call.arguments.input : JSON.stringify(call.arguments);
      items.push({
        type: "custom_tool_call",
        id: `ctc_${rid}_${i}`,
        status: "completed",
        call_id: callId,
        name: call.name,
        input,
      });
    } else {
      const args = JSON.stringify(call.arguments);
      items.push({
        type: "function_call",
        id: `fc_${rid}_${i}`,
        status: "completed",
        call_id: callId,
        ...(tool?.namespace ? { namespace: tool.namespace, name: tool.name } : { name: call.name }),
        arguments: args,
      });
    }
  });
  return items;
}

function responseObject(turn: ResolvedTurn, status: "in_progress" | "completed", output: OutputItem[]) {
  const done = status === "completed";
  return {
    id: `resp_mock_${turn.serial}`,
    object: "response",
    created_at: unixSeconds(),
    status,
    model: turn.model,
    output: done ? output : [],
    error: null,
    incomplete_details: null,
    usage: done
      ? {
          input_tokens: turn.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: turn.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: turn.inputTokens + turn.outputTokens,
        }
      : null,
  };
}

/** The streamed events of one output item, between its `added` and `done` events. */
function itemDeltas(item: OutputItem, index: number): [string, Record<string, unknown>][] {
  const at = { item_id: item.id, output_index: index };
  if (item.type === "message") {
    const text = String((item.content as { text: string }[])[0]?.text ?? "");
    const part = (t: string) => ({ type: "output_text", text: t, annotations: [] });
    return [
      ["response.content_part.added", { ...at, content_index: 0, part: part("") }],
      ...splitText(text).map((delta): [string, Record<string, unknown>] => [
        "response.output_text.delta",
        { ...at, content_index: 0, delta },
      ]),
      ["response.output_text.done", { ...at, content_index: 0, text }],
      ["response.content_part.done", { ...at, content_index: 0, part: part(text) }],
    ];
  }
  const custom = item.type === "custom_tool_call";
  const value = String(custom ? item.input : item.arguments);
  const prefix = custom ? "response.custom_tool_call_input" : "response.function_call_arguments";
  return [
    ...splitText(value, 2).map((delta): [string, Record<string, unknown>] => [`${prefix}.delta`, { ...at, delta }]),
    [`${prefix}.done`, { ...at, [custom ? "input" : "arguments"]: value }],
  ];
}

export const openAiResponsesAdapter: ProtocolAdapter = {
  protocol: "openai-responses",

  parse(body) {
    const parsed = OpenAiResponsesBodySchema.safeParse(body);
    if (!parsed.success) return { invalid: firstIssue(parsed.error, "body") };
    const conversation = conversationOf(parsed.data);
    const tools = offeredTools(parsed.data);
    return {
      conversation,
      reply(res, turn) {
        const output = outputItems(turn, tools);
        if (!conversation.stream) return sendJson(res, 200, responseObject(turn, "completed", output));
        const sse = startSse(res);
        let sequence = 0;
        const emit = (type: string, fields: Record<string, unknown>) =>
          sse.send({ type, sequence_number: sequence++, ...fields }, type);
        emit("response.created", { response: responseObject(turn, "in_progress", output) });
        emit("response.in_progress", { response: responseObject(turn, "in_progress", output) });
        output.forEach((item, index) => {
          const pending =
            item.type === "message"
              ? { ...item, status: "in_progress", content: [] }
              : {
                  ...item,
                  status: "in_progress",
                  ...(item.type === "custom_tool_call" ? { input: "" } : { arguments: "" }),
                };
          emit("response.output_item.added", { output_index: index, item: pending });
          for (const [type, fields] of itemDeltas(item, index)) emit(type, fields);
          emit("response.output_item.done", { output_index: index, item });
        });
        emit("response.completed", { response: responseObject(turn, "completed", output) });
        sse.end();
      },
    };
  },

  sendError(res, status, message) {
    const kind = errorKind(status).openai;
    sendJson(res, status, { error: { message, type: kind, param: null, code: status === 429 ? kind : null } });
  },
};
