import { describe, expect, it } from "vitest";
import { foreignBundles } from "../import";
import { runnerFixture } from "./cli-transcript.fixture";
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

  it("refuses JSON nested deeper than 256 levels, naming the file and line (was: a stack overflow naming neither)", () => {
    const nested = (levels: number) => `{"a": ${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
    expect(parseJsonLines(textFile("ok.jsonl", nested(256)))).toHaveLength(1);
    expect(() => parseJsonLines(textFile("deep.jsonl", `{}\n\n${nested(3000)}\n`))).toThrow(
      /^deep\.jsonl \(line 3\): is JSON nested deeper than 256 levels \(at column 262\)$/,
    );
    expect(() => parseJsonDocument(textFile("deep.json", `{\n "b": ${nested(300)}}`))).toThrow(
      /^deep\.json \(line 2\): is JSON nested deeper than 256 levels/,
    );
    // Brackets inside strings are text, not nesting.
    expect(parseJsonLines(textFile("s.jsonl", JSON.stringify({ s: "[".repeat(3000) })))).toHaveLength(1);
    // Arguments sent as a string too deep to parse safely stay the string.
    const deepArguments = "[".repeat(3000) + "]".repeat(3000);
    expect(toolArguments(deepArguments)).toBe(deepArguments);
  });

  it("imports a log with a deeply nested tool input as an error naming the file and line", async () => {
    const stream = runnerFixture("claude-code", "generated_stream.jsonl").data.toString("utf8");
    const lines = stream.split("\n");
    const write = lines.findIndex((line) => line.includes('"name":"Write"'));
    lines[write] = lines[write]!.replace('"input":{', `"input":{"deep":${"[".repeat(3000)}${"]".repeat(3000)},`);
    const outcomes = await foreignBundles([textFile("cc.jsonl", lines.join("\n"))], {});
    expect(outcomes).toEqual([
      {
        label: "cc.jsonl",
        ok: false,
        error: expect.stringMatching(new RegExp(`^cc\\.jsonl \\(line ${write + 1}\\): is JSON nested deeper than 256`)),
      },
    ]);
  });

  it("keeps a Codex call's arguments nested too deep as their text, and the run goes in", async () => {
    const rollout = fixtureFile("codex-rollout/handmade_rollout.jsonl").data.toString("utf8");
    const deepArguments = JSON.stringify({ deep: JSON.parse(`${"[".repeat(3000)}${"]".repeat(3000)}`) as unknown });
    const lines = rollout.split("\n").map((line) => {
      if (!line.includes('"call_id":"call_A1"') || !line.includes('"function_call"')) return line;
      const record = JSON.parse(line) as { payload: Record<string, unknown> };
      record.payload = { ...record.payload, name: "lookup", arguments: deepArguments };
      return JSON.stringify(record);
    });
    const outcomes = await foreignBundles([textFile("rollout.jsonl", lines.join("\n"))], {});
    expect(outcomes.map((o) => (o.ok ? "ok" : o.error))).toEqual(["ok"]);
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
