import { describe, expect, it } from "vitest";
import { codexExec } from "./codex-exec";
import { runnerFixture } from "./cli-transcript.fixture";
import { fixtureFile, readError, readOnlyRun, textFile } from "./reader.fixture";

const generated = (name: string) => runnerFixture("codex", name);

describe("Codex exec --json output", () => {
  it("reads the stream the real CLI wrote, and takes the prompt, model, version and cwd from its rollout beside it", () => {
    const alone = readOnlyRun(codexExec, generated("generated_exec.jsonl"));
    expect(alone.steps.map((s) => s.kind).join(" ")).toBe("message tool_call shell tool_call shell message");
    expect(alone.steps[4]).toMatchObject({ exitCode: 0, output: "hello from mock\nhello.txt\n" });
    expect(alone).toMatchObject({ task: { prompt: null }, agent: { model: null }, workspaceRoot: null });
    const [withRollout] = codexExec.read(generated("generated_exec.jsonl"), {
      siblings: [generated("generated_rollout.jsonl")],
    });
    expect(withRollout).toMatchObject({
      task: { prompt: "Create hello.txt then show it" },
      agent: { framework: "codex", frameworkVersion: "0.171.0", model: "mock-model" },
      workspaceRoot: "/tmp/research/run/cx_work",
      usage: { inputTokens: 300, outputTokens: 60 },
    });
    expect(withRollout!.steps[0]).toMatchObject({ id: "rollout.s0", role: "user" });
  });

  it("keeps a failed command's exit code, file changes as writes and deletes, and a failed turn", () => {
    const run = readOnlyRun(codexExec, fixtureFile("codex-exec/handmade_exec.jsonl"));
    expect(run.steps.map((s) => s.kind).join(" ")).toBe(
      "message tool_call shell tool_call file_write file_delete observation message",
    );
    expect(run.steps[2]).toMatchObject({ command: "bash -lc 'python -m pytest -q'", exitCode: 2 });
    expect(run.steps[4]).toMatchObject({ path: "/home/dev/calc/calc/__init__.py" });
    expect(run).toMatchObject({
      status: "failed",
      exitReason: "error",
      error: expect.stringContaining("stream disconnected"),
    });
  });

  it("detects exec streams, not rollouts or Gemini streams", () => {
    expect(codexExec.detect(generated("generated_exec.jsonl"))).toBe(true);
    expect(codexExec.detect(generated("generated_rollout.jsonl"))).toBe(false);
    expect(codexExec.detect(textFile("g.jsonl", '{"type":"init","session_id":"a"}\n'))).toBe(false);
  });

  it("names the file and line of bad input", () => {
    expect(readError(codexExec, textFile("x.jsonl", '{"type":"thread.started"}\n{'))).toMatch(/x\.jsonl \(line 2\)/);
    expect(readError(codexExec, textFile("y.jsonl", '{"type":"item.completed","item":{"type":3}}\n'))).toMatch(
      /y\.jsonl \(line 1, item\.type\)/,
    );
    const huge = { name: "huge.jsonl", data: Buffer.alloc(33 * 1024 * 1024, 0x61) };
    expect(readError(codexExec, huge)).toMatch(/huge\.jsonl \(line 1\): is over/);
  });
});
