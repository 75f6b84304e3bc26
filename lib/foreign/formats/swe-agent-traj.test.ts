import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import type { ForeignFile, ForeignRun } from "../types";
import { exitReasonOf, sweAgentTraj } from "./swe-agent-traj";
import { fileAt, fixtureFile, patchFiles, readError, readOnlyRun, textFile } from "./reader.fixture";

const onlyRun = (file: ForeignFile): ForeignRun => readOnlyRun(sweAgentTraj, file);
const errorOf = (name: string, text: string): string => readError(sweAgentTraj, textFile(name, text));

describe("SWE-agent trajectory", () => {
  const typed = fixtureFile("swe-agent-traj/pkg__pkg-7.traj");

  it("makes SWE-agent's typed commands tool calls with named arguments, anything else a shell step", () => {
    const run = onlyRun(typed);
    const actions = run.steps.filter((s) => s.kind === "tool_call" || s.kind === "shell");
    expect(actions).toMatchObject([
      { kind: "tool_call", tool: "open", arguments: { path: "pkg/a.py", line_number: "4" }, durationMs: 210 },
      { kind: "tool_call", tool: "edit", arguments: { lines: "4:4", replacement_text: "def f(x):" } },
      {
        kind: "tool_call",
        tool: "str_replace_editor",
        arguments: { command: "view", path: "/testbed/pkg/a.py", view_range: [1, 5] },
      },
      { kind: "shell", command: "cd pkg && python -m pytest -q", exitCode: null, durationMs: 2500 },
      { kind: "tool_call", tool: "submit", arguments: {} },
    ]);
    expect(run.steps.find((s) => s.kind === "shell")).toMatchObject({ output: expect.stringMatching(/^1 passed\n/) });
    const open = actions[0]!;
    expect(run.steps[run.steps.indexOf(open) + 1]).toMatchObject({
      kind: "observation",
      callId: open.kind === "tool_call" ? open.callId : "",
    });
  });

  it("takes model, instance, workspace, usage and the stop reason from replay_config and info", () => {
    const run = onlyRun(typed);
    expect(run).toMatchObject({
      task: { benchmark: "swe-bench", instanceId: "pkg__pkg-7" },
      agent: { framework: "swe-agent", frameworkVersion: "1.0.1", model: "claude-3-7-sonnet-20250219" },
      workspaceRoot: "/testbed",
      exitReason: "step_limit",
      status: "failed",
      error: "submitted (exit_cost)",
      usage: { modelCalls: 5, inputTokens: 120000, outputTokens: 2000, costUsd: 3.01 },
    });
    expect(patchFiles(run)).toEqual(["pkg/a.py"]);
  });

  it("reads a file that keeps only trajectory[]", () => {
    const { history: _history, ...rest } = JSON.parse(typed.data.toString()) as Record<string, unknown>;
    const run = onlyRun(textFile("pkg__pkg-7.traj", JSON.stringify(rest)));
    expect(run.steps.map((s) => s.kind)).toEqual([
      ...["message", "tool_call", "observation"],
      ...["message", "tool_call", "observation"],
      ...["message", "tool_call", "observation"],
      ...["message", "shell"],
      ...["message", "tool_call", "observation"],
    ]);
  });

  it("reads a history from before 1.0: agent primary, observations as plain user messages", () => {
    const history = [
      { role: "system", content: "SETTING: ...", agent: "primary" },
      { role: "user", content: "ISSUE: fix f", agent: "primary" },
      { role: "assistant", content: "Look.\n```\nls -a\n```", thought: "Look.", action: "ls -a\n", agent: "primary" },
      { role: "user", content: "a.py\n(Open file: n/a)\n(Current directory: /pkg__pkg)\nbash-$", agent: "primary" },
    ];
    const file = textFile(
      "pkg__pkg-1.traj",
      JSON.stringify({ environment: "swe_main", trajectory: [], history, info: { exit_status: "exit_cost" } }),
    );
    expect(sweAgentTraj.detect(file)).toBe(true);
    const run = onlyRun(file);
    expect(run.steps.map((s) => s.kind)).toEqual(["message", "message", "message", "shell"]);
    expect(run.steps[3]).toMatchObject({ command: "ls -a", output: expect.stringMatching(/^a\.py\n/) });
    expect(run).toMatchObject({
      workspaceRoot: "/pkg__pkg",
      exitReason: "step_limit",
      task: { instanceId: "pkg__pkg-1" },
    });
  });

  it("puts the repository of a GitHub URL or a local path where SWE-agent does", () => {
    const base = JSON.parse(typed.data.toString()) as { replay_config: string };
    const config = JSON.parse(base.replay_config) as { env: { repo: unknown } };
    const rootWith = (repo: unknown): string | null => {
      const replay = JSON.stringify({ ...config, env: { ...config.env, repo } });
      return onlyRun(textFile("x.traj", JSON.stringify({ ...base, replay_config: replay }))).workspaceRoot;
    };
    expect(rootWith({ github_url: "https://github.com/SWE-agent/test-repo", type: "github" })).toBe(
      "/SWE-agent__test-repo",
    );
    expect(rootWith({ path: "/home/me/src/project/", type: "local" })).toBe("/project");
  });

  it("says how the run stopped from info.exit_status", () => {
    expect(
      ["submitted", "submitted (exit_cost)", "exit_context", "exit_total_execution_time"].map((s) => exitReasonOf(s)),
    ).toEqual(["finished", "step_limit", "error", "timeout"]);
  });

  it("detects a .traj by its keys, not a mini-swe-agent trajectory", () => {
    expect(sweAgentTraj.detect(typed)).toBe(true);
    expect(sweAgentTraj.detect(fixtureFile("mini-swe-agent-traj/django__django-16255.traj.json"))).toBe(false);
  });

  it("refuses bad input naming the file and where", () => {
    expect(errorOf("t.traj", typed.data.subarray(0, 700).toString())).toMatch(
      /^ForeignFormatError: t\.traj \(line \d+\): is not valid JSON/,
    );
    expect(
      errorOf(
        "w.traj",
        '{"history": [{"role": "assistant", "content": "", "tool_calls": [{"function": {"name": 1}}]}]}',
      ),
    ).toMatch(/^ForeignFormatError: w\.traj \(history\[0\]\.tool_calls\[0\]\.function\.name\)/);
    expect(errorOf("e.traj", "")).toBe("ForeignFormatError: e.traj: is empty");
  });
});

describeWithTestData(
  "SWE-agent demonstration (public)",
  "fixtures/trajectories/swe-agent/function_calling_simple.traj",
  (file) => {
    it("reads the function-calling demonstration: four tool calls, one bash step, the submitted diff", () => {
      const run = onlyRun(fileAt(file));
      expect(run.steps.map((s) => (s.kind === "tool_call" ? s.tool : s.kind))).toEqual([
        "message",
        "message",
        "message",
        "find_file",
        "observation",
        "message",
        "open",
        "observation",
        "message",
        "edit",
        "observation",
        "message",
        "shell",
        "message",
        "submit",
        "observation",
      ]);
      expect(run.steps[3]).toMatchObject({
        arguments: { file_name: "missing_colon.py" },
        callId: "call_PbWErNIge3YTrli3fiVvmIid",
      });
      expect(run.steps[4]).toMatchObject({ callId: "call_PbWErNIge3YTrli3fiVvmIid" });
      expect(run.steps[12]).toMatchObject({
        command: "python tests/missing_colon.py",
        exitCode: null,
        output: expect.stringMatching(/^8\.2\n/),
      });
      expect(run).toMatchObject({
        workspaceRoot: "/SWE-agent__test-repo",
        exitReason: "finished",
        agent: { framework: "swe-agent" },
      });
      expect(patchFiles(run)).toEqual(["tests/missing_colon.py"]);
      expect(run.patch).toContain("+def division(a: float, b: float) -> float:\n");
      expect(run.patch).not.toContain("\r");
    });
  },
);
