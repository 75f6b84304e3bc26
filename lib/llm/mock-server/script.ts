/**
 * The protocol-neutral side of the mock model server: what a script sees of a request (a
 * conversation shaped like our ChatMessages, whatever the wire protocol), what it answers (a
 * scripted turn), and `scriptFromTurns`, which picks the answer from the history alone so
 * concurrent runs against one server never interfere.
 */
import type { ChatMessage, ToolCall } from "../chat";

export type MockProtocol = "gemini" | "openai-chat" | "openai-responses" | "anthropic";

/** Reported token counts are estimates: about 4 characters a token. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** Structured output the client asked for: JSON matching a schema, or any JSON object. */
export type MockResponseFormat = { type: "json_schema"; schema: unknown } | { type: "json_object" } | null;

/** The model name every answer reports, so stored data says it came from a script. */
export const MOCK_MODEL = "mock-model";

export interface MockConversation {
  protocol: MockProtocol;
  /** The model the client asked for (answers always report `mock-model`). */
  model: string;
  stream: boolean;
  /** System prompt, developer messages and instructions, joined by blank lines. */
  system: string;
  /** The history; adjacent assistant items of one turn are merged into one message. */
  messages: ChatMessage[];
  /** Names of the tools the client offered. */
  tools: string[];
  /** The structured output asked for (Gemini `responseJsonSchema`, OpenAI `response_format`, Anthropic `output_config.format`). */
  responseFormat: MockResponseFormat;
}

export interface ScriptedToolCall {
  name: string;
  /** Passed through as given: one script can drive agents whose tools name arguments differently. */
  arguments: Record<string, unknown>;
}

export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Answer with this HTTP error (in the protocol's error shape) instead of content. */
  error?: { status: number; message?: string };
  /** Wait this long before answering (timeouts, in-flight checks). */
  delayMs?: number;
  /** The model the answer reports (default `mock-model`). */
  model?: string;
  /** The protocol's own stop reason (`MAX_TOKENS`, `length`, `max_tokens`, ...); default: a normal stop. */
  finishReason?: string;
}

export type MockScript = (conversation: MockConversation) => ScriptedTurn | Promise<ScriptedTurn>;

/** Assistant turns in the history: the index of the turn to answer with. */
export const assistantTurns = (conversation: Pick<MockConversation, "messages">) =>
  conversation.messages.filter((m) => m.role === "assistant").length;

/**
 * Turn k answers a conversation that already holds k assistant turns. Past the end the server
 * answers 400, which clients do not retry: an agent that outlives its script fails visibly.
 */
export function scriptFromTurns(turns: ScriptedTurn[]): MockScript {
  return (conversation) => {
    const k = assistantTurns(conversation);
    return (
      turns[k] ?? {
        error: {
          status: 400,
          message: `mock script exhausted: the conversation holds ${k} assistant turns, the script has ${turns.length}`,
        },
      }
    );
  };
}

const callTokens = (calls: readonly { name: string; arguments: Record<string, unknown> }[]) =>
  calls.reduce((n, call) => n + estimateTokens(call.name + JSON.stringify(call.arguments)), 0);

/** Reported input tokens (~4 characters per token of the system prompt and every message). */
export function conversationTokens(conversation: Pick<MockConversation, "system" | "messages">): number {
  return conversation.messages.reduce(
    (n, m) => n + estimateTokens(m.text) + (m.role === "assistant" ? callTokens(m.toolCalls) : 0),
    estimateTokens(conversation.system),
  );
}

/** Reported output tokens of a scripted answer. */
export const turnTokens = (turn: ScriptedTurn) => estimateTokens(turn.text ?? "") + callTokens(turn.toolCalls ?? []);

/**
 * Builds the neutral history from wire items in order. Tool results find their call's name by id,
 * or (protocols without ids) the call by name among those still unanswered.
 */
export class ConversationBuilder {
  private readonly messages: ChatMessage[] = [];
  private readonly calls: ToolCall[] = [];
  private readonly answered = new Set<string>();

  user(text: string): void {
    if (text.trim() !== "") this.messages.push({ role: "user", text });
  }

  assistant(text: string, calls: { id?: string | null; name: string; arguments: Record<string, unknown> }[]): void {
    const toolCalls: ToolCall[] = [];
    for (const call of calls) {
      const toolCall = { name: call.name, arguments: call.arguments, id: call.id || `call_${this.calls.length + 1}` };
      this.calls.push(toolCall);
      toolCalls.push(toolCall);
    }
    const last = this.messages.at(-1);
    if (last?.role === "assistant") {
      last.text = [last.text, text].filter((t) => t !== "").join("\n");
      last.toolCalls.push(...toolCalls);
    } else {
      this.messages.push({ role: "assistant", text, toolCalls });
    }
  }

  toolResult(result: { callId?: string | null; name?: string | null; text: string; isError: boolean }): void {
    const call = result.callId
      ? this.calls.find((c) => c.id === result.callId)
      : this.calls.find((c) => c.name === result.name && !this.answered.has(c.id));
    const callId = result.callId || call?.id || `call_${this.calls.length + 1}`;
    this.answered.add(callId);
    this.messages.push({
      role: "tool",
      callId,
      name: result.name || call?.name || "unknown",
      text: result.text,
      isError: result.isError,
    });
  }

  build(): ChatMessage[] {
    return this.messages;
  }
}

/**
 * A script for one-shot prompts (judges, the paraphraser, the selector): the answer is computed
 * from the last user message and the system prompt, and reported as coming from `model`.
 */
export function promptScript(answer: (prompt: string, system: string) => string, model = MOCK_MODEL): MockScript {
  return (conversation) => {
    const prompt = conversation.messages.findLast((m) => m.role === "user")?.text ?? "";
    return { text: answer(prompt, conversation.system), model };
  };
}
