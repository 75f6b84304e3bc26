import { describe, expect, it } from "vitest";
import { normalizeGeminiSession, normalizeGeminiStream, withSessionExitCodes } from "./gemini-cli";
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
    expect(withSessionExitCodes(result, session).steps[5]).toMatchObject({ exitCode: 0 });
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
  });
});
