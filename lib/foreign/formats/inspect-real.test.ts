/**
 * The Inspect readers on logs Inspect AI wrote itself (its own test logs, committed unchanged in
 * fixtures/inspect-real/, README.md there says where each comes from).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_READ_LIMITS } from "@/lib/bundle/read";
import { readZipBuffer } from "@/lib/bundle/read-zip";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { zipBuffer } from "@/lib/bundle/write";
import type { ForeignRun } from "../types";
import { detectFormat } from "./index";
import { inspectEval } from "./inspect-eval";
import { inspectJson } from "./inspect-json";
import { fixtureFile, readOnlyRun, readRuns } from "./reader.fixture";

const real = (name: string) => fixtureFile(`inspect-real/${name}`);

function kinds(run: ForeignRun): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const step of run.steps) counts[step.kind] = (counts[step.kind] ?? 0) + 1;
  return counts;
}

/** Every tool call of the run, with the step that answers it (same callId), if any. */
function answers(run: ForeignRun): [TrajectoryStep & { kind: "tool_call" }, TrajectoryStep | undefined][] {
  return run.steps
    .filter((s) => s.kind === "tool_call")
    .map((call) => [call, run.steps.find((s) => s.kind !== "tool_call" && "callId" in s && s.callId === call.callId)]);
}

interface Sample {
  messages: { tool_calls?: { id: string }[]; tool_call_id?: string }[];
  events: { event: string; id?: string; span_id?: string; parent_id?: string }[];
}

/** log_message_deduplication.eval with its one sample changed, zipped again. */
async function changedDeduplicationLog(change: (sample: Sample) => void) {
  const members = await readZipBuffer(real("log_message_deduplication.eval").data, "dedup", DEFAULT_READ_LIMITS);
  const sample = JSON.parse(members.get("samples/0_epoch_1.json")!.toString("utf8")) as Sample;
  change(sample);
  members.set("samples/0_epoch_1.json", Buffer.from(JSON.stringify(sample)));
  return { name: "changed.eval", data: await zipBuffer(members) };
}

/** The messages without the assistant turn calling `callId` and the tool message answering it. */
function withoutCall(sample: Sample, callId: string): void {
  sample.messages = sample.messages.filter(
    (m) => m.tool_call_id !== callId && !(m.tool_calls ?? []).some((c) => c.id === callId),
  );
}

describe("Inspect readers on real Inspect logs", () => {
  it.each([
    ["log_tool_call_error.json", inspectJson],
    ["log_read_sample.json", inspectJson],
    ["log_images_tc.json", inspectJson],
    ["browser_trimmed.json", inspectJson],
    ["log_read_sample.eval", inspectEval],
    ["log_message_deduplication.eval", inspectEval],
    ["log_streaming.eval", inspectEval],
    ["2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval", inspectEval],
  ])("detects %s as its format", (name, format) => {
    expect(detectFormat(real(name))?.id).toBe(format.id);
  });

  it("log version 3 (.eval): each bash call, run in its own tool span, is a shell step with its exit code", () => {
    const run = readOnlyRun(inspectEval, real("log_message_deduplication.eval"));
    expect(run).toMatchObject({
      formatVersion: "3",
      task: { benchmark: "guess_number", instanceId: "0", prompt: "Guess the number" },
      agent: { framework: "inspect", frameworkVersion: "0.3.135.dev2+g715e750e", model: "hardcoded/hardcoded" },
      status: "completed",
      exitReason: "finished",
      startedAt: "2025-10-06T10:15:43.620Z",
      finishedAt: "2025-10-06T10:15:45.729Z",
      usage: { modelCalls: 6 },
    });
    expect(kinds(run)).toEqual({ message: 7, tool_call: 5, shell: 5 });
    const pairs = answers(run);
    expect(pairs.map(([call]) => call.callId)).toEqual([0, 1, 2, 3, 4].map((i) => `hardcoded_${i}`));
    for (const [call, answer] of pairs) {
      expect(call).toMatchObject({ tool: "bash", arguments: { cmd: "ls" } });
      expect(answer).toMatchObject({
        kind: "shell",
        command: "ls",
        exitCode: 0,
        output: expect.stringMatching(/^bin\n/),
      });
    }
    expect(pairs[0]![1]).toMatchObject({ timestamp: "2025-10-06T10:15:45.470Z", durationMs: 93 });
    expect(run.steps.at(-1)).toMatchObject({ kind: "message", role: "assistant", text: "done" });
  });

  it("tool calls only the events hold (turns the messages lost) are read from their events, in time order", async () => {
    const file = await changedDeduplicationLog((sample) => {
      withoutCall(sample, "hardcoded_3");
      withoutCall(sample, "hardcoded_4");
    });
    const run = readOnlyRun(inspectEval, file);
    expect(kinds(run)).toEqual({ message: 5, tool_call: 5, shell: 5 });
    expect(run.steps.slice(-5).map((s) => [s.kind, "callId" in s ? s.callId : null])).toEqual([
      ["tool_call", "hardcoded_3"],
      ["shell", "hardcoded_3"],
      ["tool_call", "hardcoded_4"],
      ["shell", "hardcoded_4"],
      ["message", null],
    ]);
    expect(run.steps.at(-2)).toMatchObject({ command: "ls", exitCode: 0, output: expect.stringMatching(/^bin\n/) });
  });

  it("a tool message whose assistant turn is gone gets its call from the tool event, answered once", async () => {
    const file = await changedDeduplicationLog((sample) => {
      sample.messages = sample.messages.filter((m) => !(m.tool_calls ?? []).some((c) => c.id === "hardcoded_2"));
    });
    const run = readOnlyRun(inspectEval, file);
    expect(kinds(run)).toEqual({ message: 6, tool_call: 5, shell: 5 });
    const at = run.steps.findIndex((s) => s.kind === "tool_call" && s.callId === "hardcoded_2");
    expect(run.steps[at]).toMatchObject({ tool: "bash", arguments: { cmd: "ls" } });
    expect(run.steps[at + 1]).toMatchObject({ kind: "shell", callId: "hardcoded_2", exitCode: 0 });
  });

  it("a tool call made inside another (an agent run as a tool) goes before the answer of the call it ran in", async () => {
    const file = await changedDeduplicationLog((sample) => {
      withoutCall(sample, "hardcoded_1");
      // hardcoded_1 recorded, and its span opened, inside hardcoded_0's tool span
      const outer = sample.events.find((e) => e.event === "tool" && e.id === "hardcoded_0")!;
      const outerSpan = sample.events.find((e) => e.event === "sandbox")!.span_id!;
      const inner = sample.events.findIndex((e) => e.event === "tool" && e.id === "hardcoded_1");
      sample.events[inner]!.span_id = outerSpan;
      sample.events[inner - 1]!.parent_id = outerSpan;
      expect(outer.span_id).not.toBe(outerSpan);
    });
    const run = readOnlyRun(inspectEval, file);
    expect(run.steps.slice(1, 7).map((s) => [s.kind, "callId" in s ? s.callId : null])).toEqual([
      ["message", null],
      ["tool_call", "hardcoded_0"],
      ["tool_call", "hardcoded_1"],
      ["shell", "hardcoded_1"],
      ["shell", "hardcoded_0"],
      ["message", null],
    ]);
  });

  it("an agent on Inspect's web browser tools: each call answered by its observation, in order", () => {
    const run = readOnlyRun(inspectJson, real("browser_trimmed.json"));
    expect(run).toMatchObject({
      task: { benchmark: "browser", instanceId: "1", prompt: expect.stringMatching(/^Use the web browser tool/) },
      agent: { framework: "inspect", frameworkVersion: "0.3.95.dev16+g6527d0861", model: "openai/gpt-4o-mini" },
      usage: { modelCalls: 5, inputTokens: 15235, outputTokens: 281 },
    });
    expect(kinds(run)).toEqual({ message: 2, tool_call: 4, observation: 4 });
    const pairs = answers(run);
    expect(pairs.map(([call]) => [call.tool, call.arguments])).toEqual([
      ["web_browser_go", { url: "https://www.aisi.gov.uk/" }],
      ["web_browser_click", { element_id: 151 }],
      ["web_browser_click", { element_id: 884 }],
      ["web_browser_click", { element_id: 903 }],
    ]);
    for (const [call, answer] of pairs) {
      expect(answer).toMatchObject({ kind: "observation", isError: false, durationMs: expect.any(Number) });
      expect(run.steps.indexOf(answer!)).toBe(run.steps.indexOf(call) + 1);
    }
    expect(pairs[0]![1]).toMatchObject({
      text: expect.stringMatching(/^\[132\] link "We are now the AI Security Institute"/),
    });
    expect(run.steps.at(-1)).toMatchObject({
      role: "assistant",
      text: expect.stringMatching(/^The AI Security Institute/),
    });
  });

  it("tool messages with every ToolCallError type are observations with isError (they answer no call in this log)", () => {
    const run = readOnlyRun(inspectJson, real("log_tool_call_error.json"));
    expect(run).toMatchObject({ formatVersion: "2", task: { instanceId: "1" }, agent: { model: "..." } });
    expect(kinds(run)).toEqual({ observation: 11 });
    expect(run.steps.map((s) => s.kind === "observation" && s.callId)).toEqual(
      Array.from({ length: 11 }, (_, i) => `bash_${i + 1}`),
    );
    expect(run.steps.every((s) => s.kind === "observation" && s.isError)).toBe(true);
    expect(run.steps[10]).toMatchObject({
      text: expect.stringMatching(/too long to be displayed[^]*10 MiB was exceeded/),
    });
  });

  it("the same run as .json and .eval: three messages, the model, the task and usage", () => {
    for (const [format, name, startedAt] of [
      [inspectJson, "log_read_sample.json", "2025-07-05T13:59:40.952Z"],
      [inspectEval, "log_read_sample.eval", "2025-07-05T13:59:48.945Z"],
    ] as const) {
      const run = readOnlyRun(format, real(name));
      expect(run).toMatchObject({
        formatVersion: "2",
        task: {
          benchmark: "popularity",
          instanceId: "1",
          prompt: expect.stringMatching(/^Is the following statement/),
        },
        agent: { framework: "inspect", model: "ollama/gemma3", provider: "ollama" },
        startedAt,
        usage: { modelCalls: 1, inputTokens: 66, outputTokens: 3 },
      });
      expect(run.steps.map((s) => s.kind === "message" && `${s.role}: ${s.text.trim().slice(0, 12)}`)).toEqual([
        "system: Please note:",
        "user: Is the follo",
        "assistant: Yes",
      ]);
    }
  });

  it("content as a list of parts: text kept, an image named", () => {
    const run = readOnlyRun(inspectJson, real("log_images_tc.json"));
    expect(run.agent.model).toBe("openai/gpt-4o");
    expect(run.task.prompt).toBe("What is this a picture of?\n[image]");
    expect(run.steps[1]).toMatchObject({ role: "user", text: "What is this a picture of?\n[image]" });
    expect(run.steps[2]).toMatchObject({ role: "assistant", text: "[hedgehog]" });
  });

  it("epochs: one run per sample and epoch, in Inspect's order (epoch, then id), not the archive's", () => {
    const runs = readRuns(inspectEval, real("log_streaming.eval"));
    expect(runs.map((r) => [r.index, r.task.instanceId, r.startedAt])).toEqual([
      [0, "1", "2024-11-05T20:04:20.311Z"],
      [1, "2", "2024-11-05T20:04:20.318Z"],
      [2, "1", "2024-11-05T20:04:20.320Z"],
      [3, "2", "2024-11-05T20:04:20.322Z"],
    ]);
    expect(new Set(runs.map((r) => r.agent.model))).toEqual(new Set(["azureai/Meta-Llama-3-1-405B-Instruct-jqf"]));
  });

  it("a log with only its journal's start.json: ten samples, numeric ids in order", () => {
    const runs = readRuns(inspectEval, real("2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval"));
    expect(runs.map((r) => r.task.instanceId)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    expect(runs.every((r) => r.agent.model === "openai/gpt-4o-mini" && kinds(r).message === 3)).toBe(true);
  });
});
