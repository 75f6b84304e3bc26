import { describe, expect, it } from "vitest";
import type { ForeignFile, ForeignRun } from "../types";
import { MAX_DOCUMENT_BYTES } from "./json-lines";
import { exitReasonOf, smolagentsMemory } from "./smolagents-memory";
import { fixtureFile, readError, readOnlyRun, textFile } from "./reader.fixture";

const onlyRun = (file: ForeignFile): ForeignRun => readOnlyRun(smolagentsMemory, file);
const errorOf = (name: string, text: string): string => readError(smolagentsMemory, textFile(name, text));

describe("smolagents memory dump", () => {
  const codeAgent = fixtureFile("smolagents-memory/code-agent.json");

  it("makes a CodeAgent's code a python_interpreter call with {code}, answered by its observations or error", () => {
    const run = onlyRun(codeAgent);
    expect(run.steps.map((s) => s.kind)).toEqual([
      "message", // task
      "message", // plan
      ...["message", "tool_call", "observation"],
      ...["message", "tool_call", "observation"],
      ...["message", "tool_call", "observation", "message"],
    ]);
    expect(run.steps[3]).toMatchObject({
      tool: "python_interpreter",
      arguments: { code: 'print(read_file("pkg/core.py"))' },
      callId: "call_1",
    });
    expect(run.steps[4]).toMatchObject({
      callId: "call_1",
      isError: false,
      text: expect.stringContaining("return x + 1"),
    });
    expect(run.steps[7]).toMatchObject({
      callId: "call_2",
      isError: true,
      text: expect.stringMatching(/^AgentExecutionError: Code execution failed/),
    });
    expect(run.steps[11]).toMatchObject({ kind: "message", role: "assistant", text: "f now returns x" });
    expect(run).toMatchObject({
      task: { prompt: "Fix the bug in pkg/core.py so that f(1) returns 1." },
      agent: { framework: "smolagents", model: "gpt-4o-2024-08-06" },
      exitReason: "finished",
      startedAt: "2024-12-04T08:13:20.000Z",
      finishedAt: "2024-12-04T08:13:28.000Z",
      usage: { modelCalls: 3, inputTokens: 3500, outputTokens: 340 },
      workspaceRoot: null,
    });
  });

  it("keeps a ToolCallingAgent's tool calls with their own names and arguments", () => {
    const run = onlyRun(fixtureFile("smolagents-memory/tool-calling-agent.json"));
    expect(run.steps.filter((s) => s.kind === "tool_call")).toMatchObject([
      { tool: "read_file", arguments: { path: "notes.txt" }, callId: "call_a" },
      { tool: "final_answer", arguments: { answer: "It says hello." }, callId: "call_b" },
    ]);
  });

  it("reads older dumps: start_time on the step, tool calls as {id, name, arguments}, an error as text", () => {
    const old = [
      { task: "t" },
      {
        step_number: 1,
        start_time: 1733300000,
        end_time: 1733300002,
        tool_calls: [{ id: "c1", name: "python_interpreter", arguments: "1/0" }],
        error: "ZeroDivisionError",
        observations: null,
      },
    ];
    const run = onlyRun(textFile("old.json", JSON.stringify(old)));
    expect(run.steps.slice(1)).toMatchObject([
      {
        kind: "tool_call",
        tool: "python_interpreter",
        arguments: { code: "1/0" },
        timestamp: "2024-12-04T08:13:20.000Z",
      },
      {
        kind: "observation",
        callId: "c1",
        isError: true,
        text: "ZeroDivisionError",
        timestamp: "2024-12-04T08:13:22.000Z",
      },
    ]);
    expect(run).toMatchObject({ exitReason: "error", error: "ZeroDivisionError" });
  });

  it("says how the run stopped: final answer, max steps, an error, or cut short", () => {
    const step = (extra: object) => ({ step_number: 1, ...extra });
    expect(exitReasonOf([step({ is_final_answer: true })])).toBe("finished");
    expect(exitReasonOf([step({}), { output: "42" }])).toBe("finished");
    expect(exitReasonOf([step({ error: { type: "AgentMaxStepsError", message: "Reached max steps." } })])).toBe(
      "step_limit",
    );
    expect(exitReasonOf([step({ error: { type: "AgentParsingError", message: "no code" } })])).toBe("error");
    expect(exitReasonOf([step({})])).toBe("cancelled");
  });

  it("detects a memory dump, not an OpenHands event list", () => {
    expect(smolagentsMemory.detect(codeAgent)).toBe(true);
    expect(smolagentsMemory.detect(fixtureFile("openhands-events/handmade.json"))).toBe(false);
  });

  it("refuses bad input naming the file and where", () => {
    expect(errorOf("t.json", codeAgent.data.subarray(0, 400).toString())).toMatch(
      /^ForeignFormatError: t\.json \(line \d+\): is not valid JSON/,
    );
    expect(errorOf("w.json", '[{"task": "t"}, {"step_number": 1, "tool_calls": "x"}]')).toMatch(
      /^ForeignFormatError: w\.json \(\[1\]\.tool_calls\)/,
    );
    expect(errorOf("s.json", '[{"task": "t"}, {"foo": 1}]')).toMatch(
      /^ForeignFormatError: s\.json \(\[1\]\): is not a smolagents step/,
    );
    expect(errorOf("e.json", "")).toBe("ForeignFormatError: e.json: is empty");
    const huge = { name: "huge.json", data: Buffer.allocUnsafe(MAX_DOCUMENT_BYTES + 1) };
    expect(readError(smolagentsMemory, huge)).toMatch(/^ForeignFormatError: huge\.json: is \d+ bytes, over/);
  });
});
