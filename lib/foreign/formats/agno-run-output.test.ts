import { describe, expect, it } from "vitest";
import type { ForeignFile, ForeignRun } from "../types";
import { MAX_DOCUMENT_BYTES } from "./json-lines";
import { agnoRunOutput, exitReasonOf } from "./agno-run-output";
import { fixtureFile, readError, readOnlyRun, readRuns, textFile } from "./reader.fixture";

const onlyRun = (file: ForeignFile): ForeignRun => readOnlyRun(agnoRunOutput, file);
const errorOf = (name: string, text: string): string => readError(agnoRunOutput, textFile(name, text));

describe("Agno RunOutput", () => {
  const runFile = fixtureFile("agno-run-output/run.json");

  it("maps messages to steps: tool calls with Agno's names and arguments, answered by the tool messages", () => {
    const run = onlyRun(runFile);
    expect(run.steps.map((s) => s.kind)).toEqual([
      "message",
      "message",
      "tool_call",
      "observation",
      "message",
      "tool_call",
      "observation",
      "tool_call",
      "observation",
      "message",
    ]);
    expect(run.steps.filter((s) => s.kind === "tool_call")).toMatchObject([
      {
        tool: "read_file",
        arguments: { file_name: "pkg/core.py" },
        callId: "call_1",
        inputTokens: 400,
        outputTokens: 30,
      },
      { tool: "run_shell_command", arguments: { args: ["python", "-m", "pytest", "-q"] }, callId: "call_2" },
      { tool: "save_file", arguments: { file_name: "pkg/core.py", overwrite: true }, callId: "call_3" },
    ]);
    expect(run.steps.filter((s) => s.kind === "observation")).toMatchObject([
      { callId: "call_1", isError: false, durationMs: 4 },
      { callId: "call_2", isError: true, text: "Error: 1 failed", durationMs: 1250 },
      { callId: "call_3", isError: false },
    ]);
    expect(run.steps.some((s) => s.kind === "message" && s.text.includes("earlier run"))).toBe(false);
  });

  it("takes model, provider, task, status, times and usage from the run", () => {
    expect(onlyRun(runFile)).toMatchObject({
      task: { prompt: "Fix the bug in pkg/core.py so that f(1) returns 1.", benchmark: null, instanceId: null },
      agent: { framework: "agno", model: "gpt-4o", provider: "OpenAI" },
      exitReason: "finished",
      status: "completed",
      startedAt: "2024-12-04T08:13:20.000Z",
      finishedAt: "2024-12-04T08:13:28.500Z",
      usage: { modelCalls: 4, inputTokens: 2200, outputTokens: 130, costUsd: null },
    });
  });

  it("reads a run saved without messages from tools[], a wrapped run and a list of runs", () => {
    const base = JSON.parse(runFile.data.toString()) as Record<string, unknown>;
    const { messages: _messages, ...withoutMessages } = base;
    const fromTools = onlyRun(textFile("t.json", JSON.stringify(withoutMessages)));
    expect(fromTools.steps.map((s) => (s.kind === "tool_call" ? s.tool : s.kind))).toEqual([
      ...["read_file", "observation", "run_shell_command", "observation", "save_file", "observation"],
      "message",
    ]);
    expect(fromTools.steps[3]).toMatchObject({ isError: true, callId: "call_2" });
    expect(onlyRun(textFile("w.json", JSON.stringify({ run: base }))).steps).toHaveLength(10);
    const runs = readRuns(
      agnoRunOutput,
      textFile("l.json", JSON.stringify([base, { ...base, status: "ERROR", content: "RateLimitError" }])),
    );
    expect(runs.map((r) => [r.index, r.exitReason, r.error])).toEqual([
      [0, "finished", null],
      [1, "error", "RateLimitError"],
    ]);
  });

  it("says how the run stopped from its status", () => {
    expect(["COMPLETED", "ERROR", "CANCELLED", "PAUSED", "RUNNING"].map(exitReasonOf)).toEqual([
      "finished",
      "error",
      "cancelled",
      "cancelled",
      "cancelled",
    ]);
  });

  it("detects a RunOutput, not a smolagents dump", () => {
    expect(agnoRunOutput.detect(runFile)).toBe(true);
    expect(agnoRunOutput.detect(fixtureFile("smolagents-memory/code-agent.json"))).toBe(false);
  });

  it("refuses bad input naming the file and where", () => {
    expect(errorOf("t.json", runFile.data.subarray(0, 600).toString())).toMatch(
      /^ForeignFormatError: t\.json \(line \d+\): is not valid JSON/,
    );
    expect(errorOf("w.json", '{"run_id": "r", "messages": [{"role": "tool", "tool_call_error": "yes"}]}')).toMatch(
      /^ForeignFormatError: w\.json \(messages\[0\]\.tool_call_error\)/,
    );
    expect(errorOf("l.json", '[{"run_id": "r"}, {"agent_id": "a"}]')).toMatch(
      /^ForeignFormatError: l\.json \(\[1\], run_id\)/,
    );
    expect(errorOf("e.json", "")).toBe("ForeignFormatError: e.json: is empty");
    const huge = { name: "huge.json", data: Buffer.allocUnsafe(MAX_DOCUMENT_BYTES + 1) };
    expect(readError(agnoRunOutput, huge)).toMatch(/^ForeignFormatError: huge\.json: is \d+ bytes, over/);
  });
});
