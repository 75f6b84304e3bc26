/**
 * Gemini's REST protocol (v1beta): `:generateContent` answers one GenerateContentResponse,
 * `:streamGenerateContent?alt=sse` a `data:` event per chunk (without `alt=sse`, one JSON array
 * of the chunks). Function calls arrive whole in the last chunk and carry no id, as the API does.
 */
import { z } from "zod";
import { type ProtocolAdapter, type ResolvedTurn } from "./adapter";
import { ConversationBuilder, type MockConversation, type MockResponseFormat } from "./script";
import { errorKind, sendJson, splitText, startSse } from "./wire";
import { firstIssue } from "@/lib/errors/zod-issues";

const PartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  functionCall: z
    .looseObject({ id: z.string().nullish(), name: z.string(), args: z.record(z.string(), z.unknown()).nullish() })
    .optional(),
  functionResponse: z
    .looseObject({ id: z.string().nullish(), name: z.string(), response: z.record(z.string(), z.unknown()).nullish() })
    .optional(),
});
const ContentSchema = z.looseObject({ role: z.string().optional(), parts: z.array(PartSchema).default([]) });

export const GeminiBodySchema = z.looseObject({
  contents: z.array(ContentSchema),
  systemInstruction: ContentSchema.optional(),
  tools: z
    .array(z.looseObject({ functionDeclarations: z.array(z.looseObject({ name: z.string() })).optional() }))
    .optional(),
  generationConfig: z
    .looseObject({
      responseMimeType: z.string().optional(),
      responseJsonSchema: z.unknown().optional(),
      responseSchema: z.unknown().optional(),
    })
    .optional(),
});

function responseFormatOf(config: z.infer<typeof GeminiBodySchema>["generationConfig"]): MockResponseFormat {
  if (config?.responseMimeType !== "application/json") return null;
  const schema = config.responseJsonSchema ?? config.responseSchema;
  return schema === undefined ? { type: "json_object" } : { type: "json_schema", schema };
}
type Part = z.infer<typeof PartSchema>;

const plainText = (parts: Part[]) =>
  parts.flatMap((p) => (typeof p.text === "string" && p.thought !== true ? [p.text] : [])).join("");

/** A functionResponse's payload as text: `{output}` or `{error}` (Gemini CLI's shapes), else JSON. */
function resultOf(response: Record<string, unknown> | null | undefined): { text: string; isError: boolean } {
  if (typeof response?.output === "string") return { text: response.output, isError: false };
  if (typeof response?.error === "string") return { text: response.error, isError: true };
  return { text: JSON.stringify(response ?? {}), isError: false };
}

function candidateBody(parts: unknown[], serial: number, end: { finish: boolean; turn: ResolvedTurn }) {
  const { inputTokens, outputTokens } = end.turn;
  return {
    candidates: [
      {
        content: { role: "model", parts },
        ...(end.finish ? { finishReason: end.turn.finishReason ?? "STOP" } : {}),
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: inputTokens,
      ...(end.finish ? { candidatesTokenCount: outputTokens } : {}),
      totalTokenCount: inputTokens + (end.finish ? outputTokens : 0),
    },
    modelVersion: end.turn.model,
    responseId: `mock-${serial}`,
  };
}

export const geminiAdapter: ProtocolAdapter = {
  protocol: "gemini",

  parse(body, route) {
    const parsed = GeminiBodySchema.safeParse(body);
    if (!parsed.success) return { invalid: `Invalid JSON payload received. ${firstIssue(parsed.error, "body")}` };
    const history = new ConversationBuilder();
    for (const content of parsed.data.contents) {
      if (content.role === "model") {
        const calls = content.parts.flatMap((p) =>
          p.functionCall
            ? [{ id: p.functionCall.id, name: p.functionCall.name, arguments: p.functionCall.args ?? {} }]
            : [],
        );
        history.assistant(plainText(content.parts), calls);
        continue;
      }
      for (const part of content.parts) {
        const response = part.functionResponse;
        if (response) history.toolResult({ callId: response.id, name: response.name, ...resultOf(response.response) });
      }
      history.user(plainText(content.parts));
    }
    const conversation: MockConversation = {
      protocol: "gemini",
      model: route.model ?? "",
      stream: route.stream ?? false,
      system: plainText(parsed.data.systemInstruction?.parts ?? []),
      messages: history.build(),
      tools: (parsed.data.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((f) => f.name)),
      responseFormat: responseFormatOf(parsed.data.generationConfig),
    };
    return {
      conversation,
      reply(res, turn) {
        const callParts = turn.toolCalls.map((call) => ({ functionCall: { name: call.name, args: call.arguments } }));
        if (!conversation.stream) {
          const parts = [...(turn.text === "" ? [] : [{ text: turn.text }]), ...callParts];
          return sendJson(
            res,
            200,
            candidateBody(parts.length > 0 ? parts : [{ text: "" }], turn.serial, { finish: true, turn }),
          );
        }
        const chunkParts: unknown[][] = splitText(turn.text).map((piece) => [{ text: piece }]);
        if (callParts.length > 0) chunkParts.push(callParts);
        if (chunkParts.length === 0) chunkParts.push([{ text: "" }]);
        const chunks = chunkParts.map((parts, i) =>
          candidateBody(parts, turn.serial, { finish: i === chunkParts.length - 1, turn }),
        );
        if (!route.sse) return sendJson(res, 200, chunks);
        const sse = startSse(res);
        for (const chunk of chunks) sse.send(chunk);
        sse.end();
      },
    };
  },

  sendError(res, status, message) {
    sendJson(res, status, { error: { code: status, message, status: errorKind(status).google } });
  },

  countTokensBody: (tokens) => ({ totalTokens: tokens }),
};
