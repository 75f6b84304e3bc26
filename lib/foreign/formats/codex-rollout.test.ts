import { describe, expect, it } from "vitest";
import { codexRollout, rolloutSessionId } from "./codex-rollout";
import { runnerFixture } from "./cli-transcript.fixture";
import { fixtureFile, readError, readOnlyRun, textFile } from "./reader.fixture";

const generated = (name: string) => runnerFixture("codex", name);

describe("Codex rollout file", () => {
  it("reads the rollout the real CLI wrote: the prompt, exec_command calls as shell steps with exit codes and durations", () => {
    const run = readOnlyRun(codexRollout, generated("generated_rollout.jsonl"));
    expect(run.steps.map((s) => s.kind).join(" ")).toBe("message tool_call shell tool_call shell message");
    expect(run.steps[2]).toMatchObject({
      kind: "shell",
      callId: "call_resp_mock_37",
      command: "printf 'hello from mock\\n' > hello.txt",
      exitCode: 0,
      durationMs: 175,
    });
    expect(run.steps[4]).toMatchObject({ command: "cat hello.txt && ls", output: "hello from mock\nhello.txt\n" });
    expect(run).toMatchObject({
      task: { prompt: "Create hello.txt then show it" },
      agent: { framework: "codex", frameworkVersion: "0.171.0", model: "mock-model" },
      workspaceRoot: "/tmp/research/run/cx_work",
      startedAt: "2026-12-02T10:14:13.298Z",
      usage: { modelCalls: 3, inputTokens: 300, outputTokens: 60 },
    });
  });

  it("maps shell argv calls, JSON outputs with exit codes, apply_patch custom calls and reasoning", () => {
    const run = readOnlyRun(codexRollout, fixtureFile("codex-rollout/handmade_rollout.jsonl"));
    expect(run.steps.map((s) => s.kind).join(" ")).toBe(
      "message message tool_call shell tool_call observation tool_call shell tool_call observation message",
    );
    // the environment context block is the harness's, not the user's prompt
    expect(run.task.prompt).toBe("Make add() in calc/ops.py handle None, and run the tests.");
    expect(run.steps[2]).toMatchObject({
      tool: "shell",
      arguments: { command: ["bash", "-lc", "cd calc && sed -n '1,40p' ops.py"], workdir: "/home/dev/calc" },
    });
    expect(run.steps[3]).toMatchObject({ command: "cd calc && sed -n '1,40p' ops.py", exitCode: 0, durationMs: 310 });
    expect(run.steps[4]).toMatchObject({
      tool: "apply_patch",
      arguments: { input: expect.stringContaining("*** Update File: calc/ops.py") },
    });
    expect(run.steps[5]).toMatchObject({ kind: "observation", callId: "call_A2", isError: false });
    expect(run.steps[7]).toMatchObject({ command: "python -m pytest -q tests/test_ops.py", exitCode: 1 });
    // a patch the harness failed to apply (its patch_apply_end event) answers with an error
    expect(run.steps[9]).toMatchObject({ kind: "observation", callId: "call_A4", isError: true });
    expect(run).toMatchObject({
      agent: { frameworkVersion: "0.46.0", model: "gpt-5-codex" },
      workspaceRoot: "/home/dev/calc",
      usage: { modelCalls: 3, inputTokens: 6900, outputTokens: 360 },
    });
  });

  it("beside the exec --json output of the same session, is read into that run and yields none of its own", () => {
    const context = { siblings: [generated("generated_exec.jsonl")] };
    expect(codexRollout.read(generated("generated_rollout.jsonl"), context)).toEqual([]);
    const otherExec = textFile("exec.jsonl", '{"type":"thread.started","thread_id":"another"}\n');
    expect(codexRollout.read(generated("generated_rollout.jsonl"), { siblings: [otherExec] })).toHaveLength(1);
  });

  it("detects rollouts (a long session_meta line too) and not exec streams", () => {
    expect(codexRollout.detect(generated("generated_rollout.jsonl"))).toBe(true);
    expect(codexRollout.detect(generated("generated_exec.jsonl"))).toBe(false);
    const longMeta = `{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"abc","instructions":"${"x".repeat(70_000)}"}}\n`;
    expect(codexRollout.detect(textFile("r.jsonl", longMeta))).toBe(true);
    expect(rolloutSessionId(textFile("r.jsonl", longMeta))).toBe("abc");
  });

  it("names the file and line of bad input", () => {
    expect(readError(codexRollout, textFile("r.jsonl", '{"type":"session_meta","payload":{}}\n{"type"'))).toMatch(
      /r\.jsonl \(line 2\): is not valid JSON/,
    );
    expect(readError(codexRollout, textFile("p.jsonl", '{"type":"response_item","payload":"x"}\n'))).toMatch(
      /p\.jsonl \(line 1, payload\)/,
    );
    expect(readError(codexRollout, textFile("e.jsonl", ""))).toMatch(/e\.jsonl: is empty/);
  });
});
