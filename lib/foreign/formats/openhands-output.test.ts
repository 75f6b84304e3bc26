import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import type { ForeignFile, ForeignRun } from "../types";
import { MAX_LINE_BYTES } from "./json-lines";
import { exitReasonOf, openhandsOutput } from "./openhands-output";
import { fileAt, fixtureFile, patchFiles, readError, readRuns, textFile } from "./reader.fixture";

const readAll = (file: ForeignFile): ForeignRun[] => readRuns(openhandsOutput, file);
const errorOf = (name: string, text: string): string => readError(openhandsOutput, textFile(name, text));

describe("OpenHands evaluation output", () => {
  const output = fixtureFile("openhands-output/output.jsonl");

  it("reads one run per line: instance, benchmark from the dataset, patch, model, usage from the metrics", () => {
    const [first, second] = readAll(output);
    expect(first).toMatchObject({
      index: 0,
      task: { benchmark: "swe-bench-verified", instanceId: "pkg__pkg-1" },
      agent: {
        framework: "openhands",
        frameworkVersion: "0.35.0",
        model: "anthropic/claude-3-5-sonnet-20241022",
        provider: "anthropic",
      },
      workspaceRoot: "/workspace/pkg__pkg__1.0",
      exitReason: "finished",
      status: "completed",
      usage: { modelCalls: 3, inputTokens: 20000, outputTokens: 300, costUsd: 0.03 },
    });
    expect(first!.steps).toHaveLength(16);
    expect(patchFiles(first!)).toEqual(["pkg/core.py"]);
    expect(second).toMatchObject({
      index: 1,
      task: { instanceId: "pkg__pkg-2", prompt: expect.stringContaining("Add a docstring.") },
      patch: null,
      exitReason: "step_limit",
      status: "failed",
      error: expect.stringContaining("maximum iteration"),
    });
  });

  it("reads a history written as [action, observation] pairs (releases before 0.9)", () => {
    const events = JSON.parse(fixtureFile("openhands-events/handmade.json").data.toString()) as unknown[];
    const pairs = [
      [events[4], events[5]],
      [events[6], events[7]],
    ];
    const record = {
      instance_id: "pkg__pkg-3",
      instruction: "Fix f",
      history: pairs,
      metadata: null,
      test_result: null,
      error: null,
    };
    const [run] = readAll(textFile("old.jsonl", `${JSON.stringify(record)}\n`));
    expect(run!.steps.map((s) => s.kind)).toEqual(["message", "shell", "tool_call", "observation"]);
  });

  it("says how the run stopped from the harness's error", () => {
    expect(exitReasonOf(null)).toBe("finished");
    expect(exitReasonOf("RuntimeError: Agent reached maximum iteration in headless mode.")).toBe("step_limit");
    expect(exitReasonOf("Agent got stuck in a loop")).toBe("error");
    expect(exitReasonOf("TimeoutError: runtime timed out")).toBe("timeout");
  });

  it("detects output.jsonl by its keys even when the first record is longer than the probe", () => {
    expect(openhandsOutput.detect(output)).toBe(true);
    expect(openhandsOutput.detect(fixtureFile("openhands-events/handmade.json"))).toBe(false);
    expect(
      openhandsOutput.detect(
        textFile("preds.jsonl", '{"instance_id": "a", "model_patch": "", "model_name_or_path": "m"}\n'),
      ),
    ).toBe(false);
  });

  it("refuses bad input naming the file and the line", () => {
    const lines = output.data.toString().split("\n");
    expect(errorOf("t.jsonl", `${lines[0]}\n${lines[1]!.slice(0, 300)}`)).toMatch(
      /^ForeignFormatError: t\.jsonl \(line 2\): is not valid JSON/,
    );
    expect(errorOf("w.jsonl", '{"instance_id": "a", "history": {}}\n')).toMatch(
      /^ForeignFormatError: w\.jsonl \(line 1, history\)/,
    );
    expect(errorOf("h.jsonl", '{"instance_id": "a", "history": [{"id": "x"}]}\n')).toMatch(
      /^ForeignFormatError: h\.jsonl \(line 1, history, \[0\]\.id\)/,
    );
    expect(errorOf("e.jsonl", "\n\n")).toBe("ForeignFormatError: e.jsonl: is empty");
    const huge = { name: "huge.jsonl", data: Buffer.alloc(MAX_LINE_BYTES + 1, 0x20) };
    expect(readError(openhandsOutput, huge)).toMatch(/^ForeignFormatError: huge\.jsonl \(line 1\): is over/);
  });
});

describeWithTestData(
  "OpenHands Multi-SWE-bench output (public)",
  "fixtures/trajectories/openhands/multi_swe_bench_output.jsonl",
  (file) => {
    it("reads the three ponyc runs with their steps, patches and stop reasons", () => {
      const runs = readAll(fileAt(file));
      expect(openhandsOutput.detect(fileAt(file))).toBe(true);
      expect(runs.map((r) => r.task.instanceId)).toEqual([
        "ponylang__ponyc-4595",
        "ponylang__ponyc-4593",
        "ponylang__ponyc-4588",
      ]);
      expect(runs.map((r) => r.steps.length)).toEqual([55, 88, 125]);
      expect(runs.map((r) => r.steps.filter((s) => s.kind === "shell").length)).toEqual([13, 12, 24]);
      expect(runs.map((r) => r.exitReason)).toEqual(["finished", "finished", "step_limit"]);
      expect(runs.map(patchFiles)).toEqual([
        ["src/libponyc/ast/parser.c"],
        ["packages/cli/command_parser.pony"],
        ["src/libponyc/expr/match.c"],
      ]);
      const first = runs[0]!;
      expect(first).toMatchObject({
        task: { benchmark: "multi-swe-bench" },
        agent: { framework: "openhands", frameworkVersion: "0.35.0", model: "openai/openrouter-llama-4-maverick" },
        workspaceRoot: "/workspace/ponylang__ponyc__0.1",
        usage: { modelCalls: 23, inputTokens: 565158, outputTokens: 2558 },
      });
      expect(first.steps.find((s) => s.kind === "shell")).toMatchObject({
        command: "ls -l /workspace/ponylang__ponyc__0.1",
        exitCode: 0,
      });
    });
  },
);
