import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../chat";
import { startMockModelServer, type MockModelServer } from "../mock-server";
import { createGeminiChatProvider, toGeminiContents } from "./gemini";
import { startStubServer, type StubServer } from "./stub-server.fixture";

let server: MockModelServer | StubServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const TOOL = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } } },
};

describe("Gemini chat provider wire mapping", () => {
  it("sends the system instruction, function declarations (parametersJsonSchema) and settings", async () => {
    const mock = await startMockModelServer({ script: () => ({ text: "ok" }) });
    server = mock;
    const provider = createGeminiChatProvider({ apiKey: "k", baseUrl: mock.url });
    await provider.chat({
      model: "gemini-2.5-flash",
      system: "Be careful.",
      messages: [{ role: "user", text: "hi" }],
      tools: [TOOL],
      temperature: 0,
      maxOutputTokens: 256,
    });
    const [request] = mock.requests;
    expect(request?.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(request?.headers["x-goog-api-key"]).toBe("k");
    expect(request?.body).toMatchObject({
      systemInstruction: { parts: [{ text: "Be careful." }] },
      tools: [
        {
          functionDeclarations: [
            { name: "read_file", description: "Read a file", parametersJsonSchema: TOOL.parameters },
          ],
        },
      ],
      generationConfig: { temperature: 0, maxOutputTokens: 256 },
    });
  });

  it("puts parallel calls in one model content and all their results in one user content", () => {
    const messages: ChatMessage[] = [
      { role: "user", text: "go" },
      {
        role: "assistant",
        text: "",
        toolCalls: [
          { id: "a", name: "read_file", arguments: { path: "x" } },
          { id: "b", name: "read_file", arguments: { path: "y" } },
        ],
      },
      { role: "tool", callId: "a", name: "read_file", text: "X", isError: false },
      { role: "tool", callId: "b", name: "read_file", text: "no such file", isError: true },
    ];
    expect(toGeminiContents(messages)).toEqual([
      { role: "user", parts: [{ text: "go" }] },
      {
        role: "model",
        parts: [
          { functionCall: { id: "a", name: "read_file", args: { path: "x" } } },
          { functionCall: { id: "b", name: "read_file", args: { path: "y" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: "a", name: "read_file", response: { output: "X" } } },
          { functionResponse: { id: "b", name: "read_file", response: { error: "no such file" } } },
        ],
      },
    ]);
  });

  it("numbers id-less calls across the conversation so ids stay unique", async () => {
    const mock = await startMockModelServer({
      script: () => ({
        toolCalls: [
          { name: "read_file", arguments: { path: "a" } },
          { name: "read_file", arguments: { path: "b" } },
        ],
      }),
    });
    server = mock;
    const provider = createGeminiChatProvider({ apiKey: "k", baseUrl: mock.url });
    const base = { model: "m", system: "", tools: [TOOL] };
    const first = await provider.chat({ ...base, messages: [{ role: "user", text: "go" }] });
    expect(first.toolCalls.map((c) => c.id)).toEqual(["call_1", "call_2"]);
    const second = await provider.chat({
      ...base,
      messages: [
        { role: "user", text: "go" },
        { role: "assistant", text: "", toolCalls: first.toolCalls },
        ...first.toolCalls.map((c) => ({
          role: "tool" as const,
          callId: c.id,
          name: c.name,
          text: "ok",
          isError: false,
        })),
      ],
    });
    expect(second.toolCalls.map((c) => c.id)).toEqual(["call_3", "call_4"]);
  });

  it("keeps the server's call ids and sends thought signatures back with their calls", async () => {
    const stub = await startStubServer(() => ({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { functionCall: { id: "srv-1", name: "read_file", args: { path: "a" } }, thoughtSignature: "c2ln" },
            ],
          },
          finishReason: "STOP",
        },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, thoughtsTokenCount: 5 },
      modelVersion: "gemini-3-pro",
    }));
    server = stub;
    const provider = createGeminiChatProvider({ apiKey: "k", baseUrl: stub.url });
    const base = { model: "m", system: "", tools: [TOOL] };
    const first = await provider.chat({ ...base, messages: [{ role: "user", text: "go" }] });
    expect(first.toolCalls).toEqual([{ id: "srv-1", name: "read_file", arguments: { path: "a" } }]);
    expect(first.outputTokens).toBe(7);
    await provider.chat({
      ...base,
      messages: [
        { role: "user", text: "go" },
        { role: "assistant", text: "", toolCalls: first.toolCalls },
        { role: "tool", callId: "srv-1", name: "read_file", text: "A", isError: false },
      ],
    });
    const sent = stub.bodies[1] as { contents: { parts: Record<string, unknown>[] }[] };
    expect(sent.contents[1]?.parts[0]).toEqual({
      functionCall: { id: "srv-1", name: "read_file", args: { path: "a" } },
      thoughtSignature: "c2ln",
    });
  });
});
