/**
 * Test support: a judge model scripted per request on the mock model server. A responder sees
 * the judge's prompt and system instruction and answers text, or an HTTP error, a delay, a stop
 * reason or another reported model; by default the answer reports the model that was asked for.
 */
import type { MockConversation, MockModelServer, MockScript } from "@/lib/llm/mock-server";

export type JudgeReply =
  string | { text?: string; status?: number; delayMs?: number; finishReason?: string; model?: string };
export type JudgeResponder = (request: { prompt: string; system: string }) => JudgeReply | Promise<JudgeReply>;

const promptOf = (conversation: MockConversation) =>
  conversation.messages.findLast((m) => m.role === "user")?.text ?? "";

export function judgeScript(respond: JudgeResponder): MockScript {
  return async (conversation) => {
    const reply = await respond({ prompt: promptOf(conversation), system: conversation.system });
    const { status, text, ...rest } = typeof reply === "string" ? { text: reply } : reply;
    const turn = { model: conversation.model, ...rest };
    return status !== undefined && status >= 400 ? { ...turn, error: { status, message: text } } : { ...turn, text };
  };
}

/** The i-th request as the judge sent it: system, prompt, the raw body, the structured output asked for. */
export function seenRequest(server: MockModelServer, i: number) {
  const request = server.requests[i];
  if (!request) throw new Error(`no request ${i} (${server.requests.length} seen)`);
  const { conversation } = request;
  return {
    system: conversation.system,
    prompt: promptOf(conversation),
    model: conversation.model,
    responseFormat: conversation.responseFormat,
    body: request.body as { generationConfig?: Record<string, unknown> },
  };
}
