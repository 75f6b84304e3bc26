import { afterEach, describe, expect, it } from "vitest";
import { AppError, isAppError } from "@/lib/errors/app-error";
import type { ChatProvider, ChatProviderConfig, ChatRequest } from "../chat";
import { startMockModelServer, type MockModelServer } from "../mock-server";
import { createChatProvider, withRetries } from "./index";

let server: MockModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const REQUEST: ChatRequest = { model: "m", system: "", messages: [{ role: "user", text: "hi" }], tools: [] };

describe("createChatProvider", () => {
  it("picks the protocol by name and requires an API key", () => {
    for (const provider of ["gemini", "openai", "anthropic"] as const) {
      expect(createChatProvider({ provider, apiKey: "k" }).name).toBe(provider);
      expect(() => createChatProvider({ provider, apiKey: " " })).toThrow(AppError);
    }
    const unknown = { provider: "cohere", apiKey: "k" } as unknown as ChatProviderConfig;
    expect(() => createChatProvider(unknown)).toThrow(/unknown chat provider/);
  });
});

describe("withRetries", () => {
  it("retries 429s against the mock server until an answer arrives", async () => {
    let calls = 0;
    server = await startMockModelServer({
      script: () => (++calls < 3 ? { error: { status: 429, message: "busy" } } : { text: "finally" }),
    });
    const retried: number[] = [];
    const provider = withRetries(createChatProvider({ provider: "anthropic", apiKey: "k", baseUrl: server.url }), {
      maxRetries: 3,
      baseDelayMs: 100,
      sleep: async () => {},
      onRetry: ({ attempt }) => retried.push(attempt),
    });
    expect(provider.name).toBe("anthropic");
    const response = await provider.chat(REQUEST);
    expect(response.text).toBe("finally");
    expect(server.requests).toHaveLength(3);
    expect(retried).toEqual([1, 2]);
  });

  it("does not retry INVALID_INPUT, and gives up after maxRetries", async () => {
    let calls = 0;
    const failing = (code: "INVALID_INPUT" | "UNAVAILABLE"): ChatProvider => ({
      name: "fake",
      chat: async () => {
        calls++;
        throw new AppError(code, code);
      },
    });
    const options = { maxRetries: 2, baseDelayMs: 1, sleep: async () => {} };
    const invalid = await withRetries(failing("INVALID_INPUT"), options)
      .chat(REQUEST)
      .catch((e: unknown) => e);
    expect(isAppError(invalid, "INVALID_INPUT")).toBe(true);
    expect(calls).toBe(1);
    calls = 0;
    const unavailable = await withRetries(failing("UNAVAILABLE"), options)
      .chat(REQUEST)
      .catch((e: unknown) => e);
    expect(isAppError(unavailable, "UNAVAILABLE")).toBe(true);
    expect(calls).toBe(3);
  });
});
