import { afterEach, describe, expect, it } from "vitest";
import { scriptFromTurns, startMockModelServer, type MockModelServer, type MockScript } from "./index";
import { parseSse, postRaw, sseJson } from "./sse.fixture";

let server: MockModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});
async function start(script: MockScript) {
  server = await startMockModelServer({ script });
  return server;
}

/** Shaped like Codex CLI 0.171 requests (see fixtures/trajectories/codex/generated_rollout.jsonl). */
const BODY = {
  model: "mock-model",
  instructions: "You are a coding agent running in the Codex CLI.",
  input: [
    { type: "message", role: "developer", content: [{ type: "input_text", text: "<permissions>full</permissions>" }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "Create hello.txt then show it" }] },
    {
      type: "function_call",
      name: "exec_command",
      arguments: '{"cmd":"echo hi > hello.txt"}',
      call_id: "call_resp_mock_37",
    },
    { type: "function_call_output", call_id: "call_resp_mock_37", output: "Process exited with code 0" },
    { type: "reasoning", summary: [] },
    { type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch", call_id: "call_p" },
    { type: "custom_tool_call_output", call_id: "call_p", output: "Success" },
  ],
  tools: [
    { type: "function", name: "exec_command", parameters: {} },
    { type: "custom", name: "apply_patch", format: { type: "grammar" } },
    { type: "web_search" },
  ],
  stream: true,
};

type Event = Record<string, unknown> & { type: string; sequence_number: number };

describe("mock server, OpenAI Responses (Codex CLI)", () => {
  it("maps input items into the neutral conversation; one assistant turn per model answer", async () => {
    const s = await start(scriptFromTurns([{ text: "a" }, { text: "b" }, { text: "c" }]));
    await postRaw(`${s.url}/v1/responses`, BODY);
    const conversation = s.requests[0]!.conversation;
    expect(conversation.system).toBe(
      "You are a coding agent running in the Codex CLI.\n\n<permissions>full</permissions>",
    );
    expect(conversation.tools).toEqual(["exec_command", "apply_patch"]);
    expect(conversation.messages).toEqual([
      { role: "user", text: "Create hello.txt then show it" },
      {
        role: "assistant",
        text: "",
        toolCalls: [{ id: "call_resp_mock_37", name: "exec_command", arguments: { cmd: "echo hi > hello.txt" } }],
      },
      {
        role: "tool",
        callId: "call_resp_mock_37",
        name: "exec_command",
        text: "Process exited with code 0",
        isError: false,
      },
      {
        role: "assistant",
        text: "",
        toolCalls: [{ id: "call_p", name: "apply_patch", arguments: { input: "*** Begin Patch" } }],
      },
      { role: "tool", callId: "call_p", name: "apply_patch", text: "Success", isError: false },
    ]);
    expect(parseSse((await postRaw(`${s.url}/v1/responses`, BODY)).text).length).toBeGreaterThan(0);
  });

  it("streams the event sequence Codex consumes, with Connection: close", async () => {
    const call = { name: "exec_command", arguments: { cmd: "cat hello.txt && ls" } };
    const s = await start(() => ({ text: "Showing it.", toolCalls: [call] }));
    const { response, text } = await postRaw(`${s.url}/v1/responses`, BODY);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("connection")).toBe("close");
    const events = parseSse(text);
    expect(events.every((e) => e.event === (JSON.parse(e.data) as Event).type)).toBe(true);
    const payloads = sseJson(events) as Event[];
    expect(payloads.map((e) => e.sequence_number)).toEqual(payloads.map((_, i) => i));
    expect(payloads.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(payloads[0]).toMatchObject({ response: { id: "resp_mock_1", status: "in_progress", model: "mock-model" } });
    const texts = payloads.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta);
    expect(texts.join("")).toBe("Showing it.");
    expect(payloads[10]).toMatchObject({
      output_index: 1,
      item: {
        type: "function_call",
        id: "fc_resp_mock_1_0",
        call_id: "call_resp_mock_1_0",
        name: "exec_command",
        arguments: "",
      },
    });
    const args = payloads.filter((e) => e.type === "response.function_call_arguments.delta").map((e) => e.delta);
    expect(JSON.parse(args.join(""))).toEqual(call.arguments);
    expect(payloads[14]).toMatchObject({
      item: { type: "function_call", status: "completed", arguments: JSON.stringify(call.arguments) },
    });
    const completed = payloads.at(-1) as unknown as {
      response: { status: string; output: unknown[]; usage: Record<string, number> };
    };
    expect(completed.response.status).toBe("completed");
    expect(completed.response.output).toHaveLength(2);
    expect(completed.response.usage).toMatchObject({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
    });
    expect(completed.response.usage.total_tokens).toBe(
      completed.response.usage.input_tokens! + completed.response.usage.output_tokens!,
    );
  });

  it("answers a call to a custom tool as a custom_tool_call carrying the input text", async () => {
    const s = await start(() => ({
      toolCalls: [{ name: "apply_patch", arguments: { input: "*** Begin Patch\n*** End Patch" } }],
    }));
    const { text } = await postRaw(`${s.url}/v1/responses`, BODY);
    const payloads = sseJson(parseSse(text)) as Event[];
    expect(payloads.map((e) => e.type)).toContain("response.custom_tool_call_input.delta");
    const done = payloads.find((e) => e.type === "response.output_item.done");
    expect(done).toMatchObject({
      item: {
        type: "custom_tool_call",
        call_id: "call_resp_mock_1_0",
        name: "apply_patch",
        input: "*** Begin Patch\n*** End Patch",
      },
    });
  });

  it("answers a non-streaming request with one response object", async () => {
    const s = await start(() => ({ text: "Done." }));
    const { response, text } = await postRaw(`${s.url}/v1/responses`, { ...BODY, stream: false, input: "hi" });
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(JSON.parse(text)).toMatchObject({
      id: "resp_mock_1",
      object: "response",
      status: "completed",
      model: "mock-model",
      output: [
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done.", annotations: [] }] },
      ],
    });
    expect(s.requests[0]?.conversation.messages).toEqual([{ role: "user", text: "hi" }]);
  });

  it("answers scripted errors before any event is sent", async () => {
    const s = await start(() => ({ error: { status: 500 } }));
    const { response, text } = await postRaw(`${s.url}/v1/responses`, BODY);
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toMatchObject({ error: { type: "server_error", message: "scripted HTTP 500" } });
  });

  it("offers the functions of a namespace tool (Codex's MCP servers) as <namespace>__<name> and calls them in it", async () => {
    const s = await start(
      scriptFromTurns([{ toolCalls: [{ name: "mcp__codekit__extract_snippet", arguments: { path: "a.py" } }] }]),
    );
    const tools = [
      { type: "function", name: "exec_command", parameters: {} },
      {
        type: "namespace",
        name: "mcp__codekit",
        tools: [{ type: "function", name: "extract_snippet", parameters: {} }],
      },
    ];
    const input = [{ type: "message", role: "user", content: "go" }];
    const first = await postRaw(`${s.url}/v1/responses`, { model: "m", input, tools });
    const response = JSON.parse(first.text) as { output: Record<string, unknown>[] };
    expect(s.requests[0]!.conversation.tools).toEqual(["exec_command", "mcp__codekit__extract_snippet"]);
    expect(response.output[0]).toMatchObject({
      type: "function_call",
      namespace: "mcp__codekit",
      name: "extract_snippet",
    });
    // The call as Codex sends it back in the history reads under the same name.
    const call = { ...response.output[0], type: "function_call" };
    await postRaw(`${s.url}/v1/responses`, { model: "m", input: [...input, call], tools });
    expect(s.requests[1]!.conversation.messages[1]).toMatchObject({
      role: "assistant",
      toolCalls: [{ name: "mcp__codekit__extract_snippet", arguments: { path: "a.py" } }],
    });
  });
});
