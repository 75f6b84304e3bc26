import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import type { ForeignFile, ForeignRun } from "../types";
import { MAX_DOCUMENT_BYTES } from "./json-lines";
import { openhandsEvents } from "./openhands-events";
import { fileAt, fixtureFile, readError, readOnlyRun, textFile } from "./reader.fixture";

const onlyRun = (file: ForeignFile): ForeignRun => readOnlyRun(openhandsEvents, file);
const errorOf = (name: string, text: string): string => readError(openhandsEvents, textFile(name, text));

describe("OpenHands event list", () => {
  const handmade = fixtureFile("openhands-events/handmade.json");

  it("maps each action form: run → shell with its exit code, editor and IPython → tool calls answered by observations", () => {
    const run = onlyRun(handmade);
    expect(run.steps.map((s) => s.kind)).toEqual([
      "message", // system
      "message", // task
      "message", // thought before the first command
      "shell",
      "tool_call", // read
      "observation",
      "tool_call", // edit
      "observation",
      "observation", // error event with no action
      "tool_call", // run_ipython
      "observation",
      "shell",
      "shell",
      "tool_call", // think
      "observation",
      "message", // finish
    ]);
    expect(run.steps[3]).toMatchObject({
      kind: "shell",
      command: "cd pkg && ls",
      exitCode: 0,
      callId: "toolu_01",
      durationMs: 620,
    });
    expect(run.steps[4]).toMatchObject({
      tool: "str_replace_editor",
      callId: "toolu_02",
      arguments: { command: "view", path: "/workspace/pkg__pkg__1.0/pkg/core.py", view_range: [1, 20] },
    });
    expect(run.steps[6]).toMatchObject({
      tool: "str_replace_editor",
      arguments: {
        command: "str_replace",
        path: "/workspace/pkg__pkg__1.0/pkg/core.py",
        old_str: "return x - 1",
        new_str: "return x",
      },
    });
    expect(run.steps[6]).not.toHaveProperty("arguments.content");
    expect(run.steps[7]).toMatchObject({ kind: "observation", callId: "toolu_03", isError: true });
    expect(run.steps[8]).toMatchObject({ kind: "observation", isError: true });
    expect(run.steps[9]).toMatchObject({
      tool: "execute_ipython_cell",
      arguments: { code: "print(open('pkg/core.py').read())" },
    });
    expect(run.steps[11]).toMatchObject({ command: "python -m pytest -q", exitCode: 1, timedOut: false });
    expect(run.steps[12]).toMatchObject({ command: "sleep 600", exitCode: null, timedOut: true });
    expect(run.steps[13]).toMatchObject({ tool: "think", arguments: { thought: "The test still fails." } });
    expect(run.steps[15]).toMatchObject({ kind: "message", role: "assistant", text: "I could not fix the test." });
  });

  it("takes the workspace from the task's uploaded files, the version, model and usage from the events", () => {
    const run = onlyRun(handmade);
    expect(run).toMatchObject({
      workspaceRoot: "/workspace/pkg__pkg__1.0",
      agent: {
        framework: "openhands",
        frameworkVersion: "0.35.0",
        model: "anthropic/claude-3-5-sonnet-20241022",
        provider: "anthropic",
      },
      usage: { inputTokens: 20000, outputTokens: 300, costUsd: 0.03 },
      exitReason: "finished",
      status: "completed",
      startedAt: "2025-04-30T16:32:54.707Z",
      finishedAt: "2025-04-30T16:34:22.948Z",
      hasTrajectory: true,
      patch: null,
    });
    expect(run.task.prompt).toContain("Fix the bug in pkg/core.py.");
  });

  it("names an LLM-based edit without a command edit_file, with its content and range", () => {
    const events = [
      {
        id: 1,
        source: "agent",
        action: "edit",
        args: {
          path: "/workspace/a.py",
          content: "x = 1\n",
          start: 1,
          end: -1,
          thought: "",
          impl_source: "llm_based_edit",
        },
      },
      {
        id: 2,
        source: "agent",
        cause: 1,
        observation: "edit",
        content: "--- a.py\n+++ a.py",
        extras: { path: "/workspace/a.py" },
      },
    ];
    const run = onlyRun(textFile("llm-edit.json", JSON.stringify(events)));
    expect(run.steps).toMatchObject([
      {
        kind: "tool_call",
        tool: "edit_file",
        callId: "event-1",
        arguments: { path: "/workspace/a.py", content: "x = 1\n", start: 1, end: -1 },
      },
      { kind: "observation", callId: "event-1", isError: false },
    ]);
    expect(run.exitReason).toBe("cancelled");
  });

  it("detects an event list by its content, not an evaluation output line or another JSON array", () => {
    expect(openhandsEvents.detect(handmade)).toBe(true);
    expect(openhandsEvents.detect(fixtureFile("openhands-output/output.jsonl"))).toBe(false);
    expect(openhandsEvents.detect(textFile("x.json", '[{"step_number": 1, "observations": "x"}]'))).toBe(false);
  });

  it("refuses bad input naming the file and where", () => {
    const truncated = handmade.data.subarray(0, 500).toString();
    expect(errorOf("t.json", truncated)).toMatch(/^ForeignFormatError: t\.json \(line \d+\): is not valid JSON/);
    expect(errorOf("w.json", '[{"id": 1, "action": "run", "args": "ls"}]')).toMatch(
      /^ForeignFormatError: w\.json \(\[0\]\.args\)/,
    );
    expect(errorOf("o.json", '{"id": 1}')).toMatch(/^ForeignFormatError: o\.json: /);
    expect(errorOf("e.json", "")).toBe("ForeignFormatError: e.json: is empty");
    const huge = { name: "huge.json", data: Buffer.allocUnsafe(MAX_DOCUMENT_BYTES + 1) };
    expect(readError(openhandsEvents, huge)).toMatch(/^ForeignFormatError: huge\.json: is \d+ bytes, over/);
  });
});

describeWithTestData("OpenHands replay trajectories (public)", "fixtures/trajectories/openhands/basic.json", (file) => {
  it("reads basic.json: the editor create with the model's own arguments, then finish", () => {
    const run = onlyRun(fileAt(file));
    expect(run.steps.map((s) => s.kind)).toEqual(["message", "message", "tool_call", "observation", "message"]);
    expect(run.steps[2]).toMatchObject({
      tool: "str_replace_editor",
      callId: "toolu_017nBp7UfiGqyrA7j77HgtFP",
      arguments: { command: "create", path: "/workspace/game_2048.py" },
    });
    expect(run.steps[3]).toMatchObject({ callId: "toolu_017nBp7UfiGqyrA7j77HgtFP", isError: false });
    expect(run).toMatchObject({
      workspaceRoot: "/workspace",
      exitReason: "finished",
      agent: { model: "claude-3-5-sonnet-20241022" },
      usage: { modelCalls: 2, inputTokens: 8132, outputTokens: 1312 },
    });
  });

  it("reads basic_interactions.json: six messages, no tool call", () => {
    const run = onlyRun(fileAt(file.replace("basic.json", "basic_interactions.json")));
    expect(run.steps.map((s) => (s.kind === "message" ? s.role : s.kind))).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(run.agent.model).toBe("gpt-4o-2024-08-06");
  });
});
