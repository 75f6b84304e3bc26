import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { normalizeClaudeCode } from "./claude-code";
import type { NormalizedTranscript } from "./transcript";
import { expectValidSteps, kinds, readFixture, writes } from "./transcript.fixture";

describe("Claude Code transcripts", () => {
  it("normalizes the stream-json output: the write, the failed Bash step with its exit code, totals", () => {
    const result = normalizeClaudeCode(
      readFixture("claude-code/generated_stream.jsonl"),
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
    const stream = normalizeClaudeCode(readFixture("claude-code/generated_stream.jsonl"), "stream");
    const session = normalizeClaudeCode(readFixture("claude-code/generated_session.jsonl"), "session");
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

  it("keeps a subagent's steps (stream-json parent_tool_use_id) after its Task call, ids prefixed", () => {
    const line = (type: string, content: unknown[], parent: string | null = null) =>
      JSON.stringify({ type, message: { id: `m${content.length}${type}`, content }, parent_tool_use_id: parent });
    const text = [
      line("assistant", [{ type: "tool_use", id: "task_1", name: "Task", input: { prompt: "look" } }]),
      line(
        "assistant",
        [{ type: "tool_use", id: "b_1", name: "Bash", input: { command: "ls", run_in_background: true } }],
        "task_1",
      ),
      line(
        "user",
        [{ type: "tool_result", tool_use_id: "b_1", content: "Command running in background with ID: x" }],
        "task_1",
      ),
      line("user", [{ type: "tool_result", tool_use_id: "task_1", content: "done" }]),
    ].join("\n");
    const result = normalizeClaudeCode(text, "stream");
    expectValidSteps(result);
    expect(result.steps.map((s) => s.id)).toEqual(["s0", "s0.sub", "s0.s0", "s0.s1", "s1"]);
    // A command sent to the background has not finished when its result comes.
    expect(result.steps[3]).toMatchObject({ kind: "shell", command: "ls", exitCode: null });
    expect(result.steps[4]).toMatchObject({ kind: "observation", callId: "task_1", text: "done" });
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
