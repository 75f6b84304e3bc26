import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TrajectoryStepSchema } from "@/lib/bundle/schema";
import { stepActions } from "@/lib/judge/rules/file-actions";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { normalizeClaudeCode } from "./claude-code";
import { normalizeCodexExec } from "./codex";
import { normalizeGeminiSession, normalizeGeminiStream, withSessionExitCodes } from "./gemini-cli";
import type { NormalizedTranscript } from "./types";

/** Transcripts the real CLIs wrote against a scripted local model (fixtures/README.md). */
const FIXTURES = path.join(import.meta.dirname, "fixtures");
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8");

function expectValidSteps(result: NormalizedTranscript) {
  for (const step of result.steps)
    expect(TrajectoryStepSchema.safeParse(step).success, JSON.stringify(step)).toBe(true);
  expect(new Set(result.steps.map((s) => s.id)).size).toBe(result.steps.length);
}
const kinds = (result: NormalizedTranscript) => result.steps.map((s) => s.kind);
const writes = (result: NormalizedTranscript) =>
  result.steps
    .flatMap(stepActions)
    .filter((a) => a.kind === "write")
    .map((a) => a.path);

describe("Claude Code transcripts", () => {
  it("normalizes the stream-json output: the write, the failed Bash step with its exit code, totals", () => {
    const result = normalizeClaudeCode(
      read("claude-code/generated_stream.jsonl"),
      "stream",
      "Create hello.txt then show it",
    );
    expectValidSteps(result);
    expect(kinds(result)).toEqual([
      "message",
      "message",
      "message",
      "tool_call",
      "observation",
      "tool_call",
      "shell",
      "message",
    ]);
    expect(result.steps[1]).toMatchObject({ role: "user", text: "Create hello.txt then show it" });
    expect(result.steps[3]).toMatchObject({ tool: "Write", callId: "toolu_mock_1" });
    expect(result.steps[6]).toMatchObject({ kind: "shell", command: "cat hello.txt && ls", exitCode: 1 });
    expect(writes(result)).toEqual(["/tmp/research/run/hello.txt"]);
    expect(result.finalAnswer).toBe("Done: created hello.txt and printed it.");
    expect(result.usage).toEqual({ modelCalls: 3, inputTokens: 300, outputTokens: 60, costUsd: 0.0018000000000000002 });
    expect(result.error).toBeNull();
    expect(result.sessionId).toBe("32e84049-c249-46dc-8501-c6035faf90a1");
  });

  it("reads the matching session file to the same tool calls, with the user's prompt", () => {
    const stream = normalizeClaudeCode(read("claude-code/generated_stream.jsonl"), "stream");
    const session = normalizeClaudeCode(read("claude-code/generated_session.jsonl"), "session");
    expectValidSteps(session);
    const calls = (r: NormalizedTranscript) =>
      r.steps.filter((s) => s.kind === "tool_call").map((s) => s.kind === "tool_call" && s.tool);
    expect(calls(session)).toEqual(calls(stream));
    expect(session.steps.find((s) => s.kind === "message" && s.role === "user")).toMatchObject({
      text: expect.stringContaining("hello.txt"),
    });
  });

  it("names the line of a broken transcript", () => {
    expect(() => normalizeClaudeCode('{"type":"system"}\nnot json\n', "native/stdout.jsonl")).toThrow(
      /native\/stdout.jsonl: line 2 is not JSON/,
    );
  });

  it("reports an error result", () => {
    const result = normalizeClaudeCode(
      JSON.stringify({ type: "result", subtype: "error_max_turns", is_error: true, num_turns: 5, usage: {} }),
      "x",
    );
    expect(result.error).toMatch(/error_max_turns/);
  });
});

describeWithTestData("Claude Code sessions of real users (public)", "fixtures/trajectories/claude-code", (dir) => {
  it.each(["session_short.jsonl", "session_tool_heavy.jsonl"])("normalizes the real session %s", (name) => {
    const result = normalizeClaudeCode(fs.readFileSync(path.join(dir, name), "utf8"), name);
    expectValidSteps(result);
    const calls = result.steps.filter((s) => s.kind === "tool_call");
    const answers = result.steps.filter((s) => s.kind === "observation" || s.kind === "shell");
    expect(calls.length).toBeGreaterThan(0);
    // every result is tied to a call of this transcript
    const ids = new Set(calls.map((c) => c.callId));
    for (const a of answers) expect(ids.has("callId" in a ? a.callId : undefined)).toBe(true);
  });
});

describe("Codex transcripts", () => {
  it("normalizes exec --json: commands with exit codes and output, the answer, usage", () => {
    const result = normalizeCodexExec(read("codex/generated_exec.jsonl"), "exec", "Create hello.txt then show it");
    expectValidSteps(result);
    expect(kinds(result)).toEqual(["message", "message", "tool_call", "shell", "tool_call", "shell", "message"]);
    expect(result.steps[5]).toMatchObject({ exitCode: 0, output: "hello from mock\nhello.txt\n" });
    expect(writes(result)).toContain("hello.txt");
    expect(result.finalAnswer).toBe("Done: created hello.txt and printed it.");
    expect(result.usage).toMatchObject({ inputTokens: 300, outputTokens: 60 });
    expect(result.sessionId).toBe("01a2363f-61eb-7492-a582-d375c432ba5e");
  });
});

describe("Gemini CLI transcripts", () => {
  it("normalizes stream-json: merged deltas, write_file, the shell step, stats", () => {
    const result = normalizeGeminiStream(read("gemini-cli/generated_stream.jsonl"), "stream");
    expectValidSteps(result);
    expect(kinds(result)).toEqual(["message", "message", "tool_call", "observation", "tool_call", "shell", "message"]);
    // The stream prints no exit codes; the session file has them (what the model saw).
    expect(result.steps[5]).toMatchObject({
      command: "cat hello.txt && ls",
      exitCode: null,
      output: "hello from mock\nhello.txt",
    });
    const session = normalizeGeminiSession(read("gemini-cli/generated_session.jsonl"), "session");
    expect(withSessionExitCodes(result, session).steps[5]).toMatchObject({ exitCode: 0 });
    expect(writes(result)).toEqual(["hello.txt"]);
    expect(result.finalAnswer).toBe("Done: created hello.txt and printed it.");
    expect(result.usage).toMatchObject({ inputTokens: 450, outputTokens: 50 });
  });

  it("normalizes the session file, the last version of a repeated record winning", () => {
    const result = normalizeGeminiSession(read("gemini-cli/generated_session.jsonl"), "session");
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
