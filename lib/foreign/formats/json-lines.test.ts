import { describe, expect, it } from "vitest";
import { agnoRunOutput } from "./agno-run-output";
import {
  benchmarkFromNames,
  contentProbe,
  fieldPath,
  isoTime,
  parseJsonDocument,
  parseJsonLines,
  toolArguments,
} from "./json-lines";
import { miniSweAgentPreds } from "./mini-swe-agent-preds";
import { miniSweAgentTraj } from "./mini-swe-agent-traj";
import { openhandsEvents } from "./openhands-events";
import { openhandsOutput } from "./openhands-output";
import { fixtureFile, textFile } from "./reader.fixture";
import { smolagentsMemory } from "./smolagents-memory";
import { sweAgentTraj } from "./swe-agent-traj";

describe("bounded JSON reading", () => {
  it("reads JSON Lines with their line numbers, skipping blank lines and a BOM", () => {
    expect(parseJsonLines(textFile("a.jsonl", '\uFEFF{"a": 1}\n\n{"b": 2}\n'))).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { b: 2 } },
    ]);
  });

  it("names the line of a syntax error inside a document", () => {
    expect(() => parseJsonDocument(textFile("d.json", '{\n  "a": 1,\n  "b": ]\n}'))).toThrow(
      /d\.json \(line 3\): is not valid JSON/,
    );
  });

  it("probes only the head and tail of a file", () => {
    const probe = contentProbe(textFile("p.json", `  [${" ".repeat(70_000)}"end"]`));
    expect(probe.firstChar).toBe("[");
    expect(probe.head.length).toBe(64 * 1024);
    expect(probe.tail).toContain('"end"');
  });
});

describe("conversions", () => {
  it("reads ISO times with or without an offset, and epoch seconds", () => {
    expect(isoTime("2025-04-30T16:32:54.707474")).toBe("2025-04-30T16:32:54.707Z");
    expect(isoTime("2025-04-30 16:31:22")).toBe("2025-04-30T16:31:22.000Z");
    expect(isoTime("2025-04-30T18:32:54+02:00")).toBe("2025-04-30T16:32:54.000Z");
    expect(isoTime(1733300000.5)).toBe("2024-12-04T08:13:20.500Z");
    expect([isoTime("soon"), isoTime(null), isoTime(0)]).toEqual([undefined, undefined, undefined]);
  });

  it("names benchmarks as datasets, folders and images spell them", () => {
    expect(benchmarkFromNames(["princeton-nlp/SWE-bench_Verified"])).toBe("swe-bench-verified");
    expect(benchmarkFromNames([null, "__data__multi_swe_bench_c_changed_debug.jsonl-train"])).toBe("multi-swe-bench");
    expect(benchmarkFromNames(["docker.io/swebench/sweb.eval.x86_64.django_1776_django-16255:latest"])).toBe(
      "swe-bench",
    );
    expect(benchmarkFromNames(["SWE-bench_Lite"])).toBe("swe-bench-lite");
    expect(benchmarkFromNames(["my-dataset", "run.json"])).toBeNull();
  });

  it("parses tool arguments sent as JSON text and keeps anything else", () => {
    expect(toolArguments('{"path": "a.py"}')).toEqual({ path: "a.py" });
    expect(toolArguments("print(1)")).toBe("print(1)");
    expect(toolArguments(undefined)).toEqual({});
    expect(fieldPath(["history", 3, "args"])).toBe("history[3].args");
  });
});

describe("detection among these readers", () => {
  const formats = [
    openhandsEvents,
    openhandsOutput,
    sweAgentTraj,
    miniSweAgentTraj,
    miniSweAgentPreds,
    smolagentsMemory,
    agnoRunOutput,
  ];
  const fixtures: [string, string][] = [
    ["openhands-events/handmade.json", "openhands-events"],
    ["openhands-output/output.jsonl", "openhands-output"],
    ["swe-agent-traj/pkg__pkg-7.traj", "swe-agent-traj"],
    ["mini-swe-agent-traj/django__django-16255.traj.json", "mini-swe-agent-traj"],
    ["mini-swe-agent-preds/preds.json", "mini-swe-agent-preds"],
    ["smolagents-memory/code-agent.json", "smolagents-memory"],
    ["smolagents-memory/tool-calling-agent.json", "smolagents-memory"],
    ["agno-run-output/run.json", "agno-run-output"],
  ];
  it.each(fixtures)("%s is detected by %s alone", (relative, id) => {
    const file = fixtureFile(relative);
    expect(formats.filter((f) => f.detect(file)).map((f) => f.id)).toEqual([id]);
  });
});
