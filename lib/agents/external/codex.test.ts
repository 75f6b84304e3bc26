import { describe, expect, it } from "vitest";
import { normalizeCodexExec } from "./codex";
import { expectValidSteps, kinds, readFixture, writes } from "./transcript.fixture";

describe("Codex transcripts", () => {
  it("normalizes exec --json: commands with exit codes and output, the answer, usage", () => {
    const result = normalizeCodexExec(
      readFixture("codex/generated_exec.jsonl"),
      "exec",
      "Create hello.txt then show it",
    );
    expectValidSteps(result);
    expect(kinds(result)).toEqual(["message", "message", "tool_call", "shell", "tool_call", "shell", "message"]);
    expect(result.steps[5]).toMatchObject({ exitCode: 0, output: "hello from mock\nhello.txt\n" });
    expect(writes(result)).toContain("hello.txt");
    expect(result.finalAnswer).toBe("Done: created hello.txt and printed it.");
    expect(result.usage).toMatchObject({ inputTokens: 300, outputTokens: 60 });
    expect(result.sessionId).toBe("01a2363f-61eb-7492-a582-d375c432ba5e");
  });
});
