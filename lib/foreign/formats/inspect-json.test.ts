import { describe, expect, it } from "vitest";
import { inspectJson } from "./inspect-json";
import { MAX_DOCUMENT_BYTES } from "./json-lines";
import { fixtureFile, patchFiles, readError, readRuns, textFile } from "./reader.fixture";

/** A small log shaped as inspect_ai writes it (fixtures/inspect-json/make_fixture.py says how it was built). */
const log = () => fixtureFile("inspect-json/swe_bench_mini.json");

describe("Inspect AI .json log", () => {
  it("reads one run per sample, with the task, model and version from the log", () => {
    const runs = readRuns(inspectJson, log());
    expect(runs).toHaveLength(2);
    expect(runs.map((r) => r.task.instanceId)).toEqual(["django__django-11163", "astropy__astropy-12907"]);
    expect(runs[0]).toMatchObject({
      index: 0,
      formatVersion: "2",
      task: { benchmark: "swe-bench-verified", prompt: expect.stringMatching(/^model_to_dict\(\)/) },
      agent: {
        framework: "inspect",
        frameworkVersion: "0.3.112",
        model: "openai/gpt-4o-2024-08-06",
        provider: "openai",
      },
      workspaceRoot: "/testbed",
      status: "completed",
      exitReason: "finished",
      startedAt: "2025-06-02T12:00:00.000Z",
      usage: { modelCalls: 5, inputTokens: 12000, outputTokens: 640 },
    });
    expect(patchFiles(runs[0]!)).toEqual(["django/forms/models.py"]);
    expect(runs[1]).toMatchObject({ patch: null, exitReason: "step_limit", error: "Inspect message limit reached" });
  });

  it("maps bash calls with a known exit code (span events) to shell steps, others to observations; a timeout stays unknown", () => {
    const [run] = readRuns(inspectJson, log());
    expect(run!.steps.map((s) => s.kind).join(" ")).toBe(
      "message message message tool_call shell tool_call observation tool_call shell tool_call shell message tool_call observation",
    );
    // the system prompt was an attachment:// reference
    expect(run!.steps[0]).toMatchObject({
      role: "system",
      text: expect.stringMatching(/^You are an expert software engineer/),
    });
    expect(run!.steps[4]).toMatchObject({
      kind: "shell",
      callId: "call_1",
      command: "cd /testbed && grep -n 'if fields and' django/forms/models.py",
      exitCode: 0,
      durationMs: 400,
    });
    expect(run!.steps[5]).toMatchObject({
      tool: "text_editor",
      arguments: { command: "str_replace", path: "/testbed/django/forms/models.py" },
    });
    expect(run!.steps[8]).toMatchObject({ exitCode: 1, command: expect.stringContaining("pytest") });
    expect(run!.steps[10]).toMatchObject({ command: "sleep 400", exitCode: null, timedOut: true });
  });

  it("takes exit codes from sandbox events nested in the tool event (logs before spans), and reads reasoning", () => {
    const run = readRuns(inspectJson, log())[1]!;
    expect(run.steps.map((s) => s.kind).join(" ")).toBe(
      "message message message tool_call shell tool_call observation tool_call shell",
    );
    expect(run.steps[1]).toMatchObject({ text: "(thinking) Start by looking at the environment." });
    expect(run.steps[4]).toMatchObject({ exitCode: 0, output: "5.0.dev\n", durationMs: 650 });
    // python is not a shell command: its exit code stays with the tool call's observation
    expect(run.steps[6]).toMatchObject({ kind: "observation", callId: "call_b", isError: false });
    expect(run.steps[8]).toMatchObject({ command: "cat /testbed/missing.py", exitCode: 1 });
  });

  it("reads samples as older Inspect versions wrote them: transcript, a single score, tool_error", () => {
    type Sample = Record<string, unknown> & { messages: Record<string, unknown>[] };
    const good = JSON.parse(log().data.toString("utf8")) as { samples: Sample[] };
    const old = structuredClone(good);
    const sample = old.samples[0]!;
    sample.transcript = { events: sample.events, content: sample.attachments };
    sample.score = (sample.scores as Record<string, unknown>)[Object.keys(sample.scores as object)[0]!];
    for (const key of ["events", "attachments", "scores"]) delete sample[key];
    Object.assign(sample.messages[5]!, { error: null, tool_error: "str_replace: old_str not found" });
    const [was] = readRuns(inspectJson, log());
    const [run] = readRuns(inspectJson, textFile("old.json", JSON.stringify(old)));
    expect(run!.patch).toBe(was!.patch);
    expect(run!.steps[0]).toEqual(was!.steps[0]); // the system prompt's attachment, from transcript.content
    expect(run!.steps[4]).toEqual(was!.steps[4]); // the exit code, from the transcript's sandbox event
    expect(run!.steps[6]).toMatchObject({
      kind: "observation",
      isError: true,
      text: "The file /testbed/django/forms/models.py has been edited.\nstr_replace: old_str not found",
    });
  });

  it("reads a redacted reasoning block as its summary, and none without one", () => {
    type Sample = { messages: { content: Record<string, unknown>[] }[] };
    const changed = JSON.parse(log().data.toString("utf8")) as { samples: Sample[] };
    const reasoning = changed.samples[1]!.messages[1]!.content[0]!;
    Object.assign(reasoning, { reasoning: "gAAAAABo-opaque", redacted: true, summary: "Check the version first." });
    const run = readRuns(inspectJson, textFile("r.json", JSON.stringify(changed)))[1]!;
    expect(run.steps[1]).toMatchObject({ text: "(thinking) Check the version first." });
    delete reasoning.summary;
    const bare = readRuns(inspectJson, textFile("r.json", JSON.stringify(changed)))[1]!;
    expect(bare.steps.map((s) => s.kind === "message" && s.text).join(" ")).not.toMatch(/thinking|opaque/);
  });

  it("maps each kind of Inspect limit to why the run stopped", () => {
    type Sample = { limit: { type: string } | null };
    const changed = JSON.parse(log().data.toString("utf8")) as { samples: Sample[] };
    const exitFor = (type: string) => {
      changed.samples[1]!.limit = { type };
      return readRuns(inspectJson, textFile("l.json", JSON.stringify(changed)))[1]!.exitReason;
    };
    expect(["message", "turn", "token", "time", "working", "operator", "custom"].map(exitFor)).toEqual([
      "step_limit",
      "step_limit",
      "step_limit",
      "timeout",
      "timeout",
      "cancelled",
      "error",
    ]);
  });

  it("detects Inspect logs by their head, not other JSON", () => {
    expect(inspectJson.detect(log())).toBe(true);
    expect(inspectJson.detect(textFile("x.json", '{"version": 2, "eval": {}}'))).toBe(false);
    expect(inspectJson.detect(fixtureFile("gemini-cli-session/read_session.json"))).toBe(false);
  });

  it("names the file and field of bad input", () => {
    const good = JSON.parse(log().data.toString("utf8")) as { samples: Record<string, unknown>[] };
    const broken = structuredClone(good);
    (broken.samples[1]!.messages as Record<string, unknown>[])[2]!.role = "robot";
    expect(readError(inspectJson, textFile("a.json", JSON.stringify(broken)))).toMatch(
      /a\.json \(samples\[1\], messages\[2\]\.role\)/,
    );
    expect(readError(inspectJson, textFile("b.json", JSON.stringify({ ...good, eval: { task: 1 } })))).toMatch(
      /b\.json \(eval\.task\)/,
    );
    expect(readError(inspectJson, textFile("c.json", JSON.stringify({ ...good, samples: [] })))).toMatch(
      /c\.json \(samples\): holds no samples/,
    );
    expect(readError(inspectJson, textFile("d.json", log().data.toString("utf8").slice(0, 5000)))).toMatch(
      /d\.json \(line \d+\): is not valid JSON/,
    );
    expect(readError(inspectJson, textFile("e.json", ""))).toMatch(/e\.json: is empty/);
  });

  it("refuses a log over the document bound without parsing it", () => {
    const huge = { name: "huge.json", data: Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 0x20) };
    huge.data.write('{"version": 2, "status": "success", "eval": {"run_id": "x"', 0);
    expect(inspectJson.detect(huge)).toBe(true);
    expect(readError(inspectJson, huge)).toMatch(/huge\.json: is \d+ bytes, over/);
  });
});
