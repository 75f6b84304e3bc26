import { describe, expect, it } from "vitest";
import { normalizeGeminiSession, normalizeGeminiStream, withSessionResults } from "./gemini-cli";
import { expectValidSteps, kinds, readFixture, writes } from "./transcript.fixture";

describe("Gemini CLI transcripts", () => {
  it("normalizes stream-json: merged deltas, write_file, the shell step, stats", () => {
    const result = normalizeGeminiStream(readFixture("gemini-cli/generated_stream.jsonl"), "stream");
    expectValidSteps(result);
    expect(kinds(result)).toEqual(["message", "message", "tool_call", "observation", "tool_call", "shell", "message"]);
    // The stream prints no exit codes; the session file has them (what the model saw).
    expect(result.steps[5]).toMatchObject({
      command: "cat hello.txt && ls",
      exitCode: null,
      output: "hello from mock\nhello.txt",
    });
    const session = normalizeGeminiSession(readFixture("gemini-cli/generated_session.jsonl"), "session");
    const merged = withSessionResults(result, session);
    expect(merged.steps[5]).toMatchObject({ exitCode: 0 });
    // The stream sends no output for write_file; the session has what the model was shown.
    expect(result.steps[3]).toMatchObject({ kind: "observation", text: "" });
    expect(merged.steps[3]).toMatchObject({ text: expect.stringContaining("Successfully created") });
    expect(merged.cwd).toBe("/tmp/research/run/gm_work");
    expect(writes(result)).toEqual(["hello.txt"]);
    expect(result.finalAnswer).toBe("Done: created hello.txt and printed it.");
    expect(result.usage).toMatchObject({ inputTokens: 450, outputTokens: 50 });
  });

  it("normalizes the session file, the last version of a repeated record winning", () => {
    const result = normalizeGeminiSession(readFixture("gemini-cli/generated_session.jsonl"), "session");
    expectValidSteps(result);
    const calls = result.steps.filter((s) => s.kind === "tool_call").map((s) => s.kind === "tool_call" && s.tool);
    expect(calls).toEqual(["write_file", "run_shell_command"]);
    expect(result.steps.find((s) => s.kind === "observation")).toMatchObject({
      text: expect.stringContaining("Successfully created"),
      isError: false,
    });
    expect(result.sessionId).toBe("39a42a3a-6152-4bf2-9650-36b97fddf577");
    expect(result.cwd).toBe("/tmp/research/run/gm_work");
    expect(result.models).toEqual(["gemini-3.1-pro-preview"]);
  });

  it("reads the one-document session file of earlier versions", () => {
    const document = {
      sessionId: "s-1",
      projectHash: "p",
      messages: [
        { id: "m1", type: "user", content: "Show the README" },
        {
          id: "m2",
          type: "gemini",
          content: "",
          model: "gemini-2.5-pro",
          toolCalls: [
            {
              id: "read_file-1",
              name: "read_file",
              args: { absolute_path: "/w/README.md" },
              status: "success",
              result: [{ functionResponse: { id: "read_file-1", name: "read_file", response: { output: "# Demo" } } }],
            },
          ],
        },
      ],
    };
    const result = normalizeGeminiSession(JSON.stringify(document, null, 2), "session.json");
    expect(kinds(result)).toEqual(["message", "tool_call", "observation"]);
    expect(result.steps[2]).toMatchObject({ callId: "read_file-1", text: "# Demo", isError: false });
    expect(result.sessionId).toBe("s-1");
  });
});
