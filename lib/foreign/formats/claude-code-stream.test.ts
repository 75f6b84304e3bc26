import { describe, expect, it } from "vitest";
import { claudeCodeStream } from "./claude-code-stream";
import { runnerFixture } from "./cli-transcript.fixture";
import { fixtureFile, readError, readOnlyRun, textFile } from "./reader.fixture";

const generated = (name: string) => runnerFixture("claude-code", name);

describe("Claude Code stream-json output", () => {
  it("reads the stream the real CLI wrote: the write, the failed Bash step, totals, cwd and version", () => {
    const run = readOnlyRun(claudeCodeStream, generated("generated_stream.jsonl"));
    expect(run.steps.map((s) => s.kind).join(" ")).toBe(
      "message message tool_call observation tool_call shell message",
    );
    expect(run.steps[2]).toMatchObject({
      tool: "Write",
      arguments: { file_path: "/tmp/research/run/hello.txt" },
    });
    expect(run.steps[5]).toMatchObject({ command: "cat hello.txt && ls", exitCode: 1 });
    expect(run).toMatchObject({
      task: { prompt: null },
      agent: { framework: "claude-code", frameworkVersion: "2.1.197", model: "claude-sonnet-4-5" },
      workspaceRoot: "/tmp/research/run/cc_work",
      status: "completed",
      exitReason: "finished",
      usage: { modelCalls: 3, inputTokens: 300, outputTokens: 60, costUsd: 0.0018000000000000002 },
    });
  });

  it("places a subagent's records (parent_tool_use_id) after its Task call and says the turn limit ended the run", () => {
    const run = readOnlyRun(claudeCodeStream, fixtureFile("claude-code-stream/subagent_stream.jsonl"));
    expect(run.steps.map((s) => s.id)).toEqual(["s0", "s1", "s1.sub", "s1.s0", "s1.s1", "s1.s2", "s1.s3", "s2", "s3"]);
    expect(run.steps[4]).toMatchObject({ kind: "tool_call", tool: "Bash", callId: "toolu_s9" });
    expect(run.steps[5]).toMatchObject({ kind: "shell", command: "grep -rn 'def price' .", exitCode: 0 });
    expect(run.steps[7]).toMatchObject({ kind: "observation", callId: "toolu_task_9", text: "shop/pricing.py" });
    expect(run).toMatchObject({
      task: { prompt: null },
      status: "failed",
      exitReason: "step_limit",
      error: expect.stringContaining("error_max_turns"),
      // the result's totals already count the subagent
      usage: { modelCalls: 2, inputTokens: 500, outputTokens: 100, costUsd: 0.0042 },
    });
  });

  it("detects stream-json by its init or its parent_tool_use_id records", () => {
    expect(claudeCodeStream.detect(generated("generated_stream.jsonl"))).toBe(true);
    expect(claudeCodeStream.detect(fixtureFile("claude-code-stream/subagent_stream.jsonl"))).toBe(true);
    expect(claudeCodeStream.detect(textFile("g.jsonl", '{"type":"init","session_id":"a","model":"auto"}\n'))).toBe(
      false,
    );
  });

  it("names the file and line of bad input", () => {
    expect(readError(claudeCodeStream, textFile("s.jsonl", '{"type":"system","subtype":"init"}\n{"type":'))).toMatch(
      /s\.jsonl \(line 2\): is not valid JSON/,
    );
    expect(readError(claudeCodeStream, textFile("t.jsonl", '{"type":7}\n'))).toMatch(/t\.jsonl \(line 1, type\)/);
    expect(readError(claudeCodeStream, textFile("u.jsonl", "\n\n"))).toMatch(/u\.jsonl: is empty/);
  });
});
