import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { claudeCodeSession } from "./claude-code-session";
import { claudeCodeStream } from "./claude-code-stream";
import { runnerFixture } from "./cli-transcript.fixture";
import { fileAt, fixtureFile, readError, readOnlyRun, textFile } from "./reader.fixture";

const generated = (name: string) => runnerFixture("claude-code", name);

describe("Claude Code session transcript", () => {
  it("reads a subagent's sidechain after the Task call that started it, ids prefixed, the Task answered", () => {
    const run = readOnlyRun(claudeCodeSession, fixtureFile("claude-code-session/subagent_session.jsonl"));
    const ids = run.steps.map((s) => s.id);
    expect(ids.slice(0, 10)).toEqual([
      "s0",
      "s1",
      "s2",
      "s2.sub",
      "s2.s0",
      "s2.s1",
      "s2.s2",
      "s2.s3",
      "s2.s4",
      "s2.s5",
    ]);
    expect(run.steps[2]).toMatchObject({ kind: "tool_call", tool: "Task", callId: "toolu_task_1" });
    expect(run.steps[4]).toMatchObject({
      kind: "message",
      role: "system",
      text: expect.stringMatching(/^Subagent prompt: Find the module/),
    });
    expect(run.steps[8]).toMatchObject({
      kind: "shell",
      command: "cd shop && grep -n 'def price' pricing.py",
      exitCode: 0,
      durationMs: 1500,
    });
    expect(run.steps[10]).toMatchObject({ id: "s3", kind: "observation", callId: "toolu_task_1", isError: false });
    expect(run.steps.at(-2)).toMatchObject({
      kind: "shell",
      exitCode: 1,
      command: "python -m pytest tests/test_price.py -q",
    });
  });

  it("reads a subagent's own file (agent-*.jsonl, same session) into the session's run, and no run of its own", () => {
    const lines = fixtureFile("claude-code-session/subagent_session.jsonl").data.toString("utf8").trim().split("\n");
    const onSidechain = (line: string) => (JSON.parse(line) as { isSidechain?: boolean }).isSidechain === true;
    const session = textFile("7b0c1f9e.jsonl", lines.filter((l) => !onSidechain(l)).join("\n"));
    const agent = textFile("agent-a1b2.jsonl", lines.filter(onSidechain).join("\n"));
    const [run] = claudeCodeSession.read(session, { siblings: [session, agent] });
    const whole = readOnlyRun(claudeCodeSession, fixtureFile("claude-code-session/subagent_session.jsonl"));
    expect(run!.steps).toEqual(whole.steps);
    expect(claudeCodeSession.read(agent, { siblings: [session, agent] })).toEqual([]);
    // alone, the subagent's file is a run of its own: its steps under a subagent marker
    expect(readOnlyRun(claudeCodeSession, agent).steps.map((s) => s.kind)).toContain("shell");
  });

  it("takes the prompt, the workspace, the version, the models and the usage of both threads from the records", () => {
    const run = readOnlyRun(claudeCodeSession, fixtureFile("claude-code-session/subagent_session.jsonl"));
    expect(run).toMatchObject({
      task: {
        benchmark: null,
        instanceId: null,
        prompt: "The test tests/test_price.py fails. Find out why and fix it.",
      },
      agent: { framework: "claude-code", frameworkVersion: "1.0.98", model: "claude-sonnet-4-20250514" },
      workspaceRoot: "/home/dev/shop",
      hasTrajectory: true,
      patch: null,
      status: "completed",
      exitReason: "finished",
      startedAt: "2025-09-01T10:00:00.000Z",
      finishedAt: "2025-09-01T10:00:16.000Z",
      // 5 main-thread messages + 3 of the subagent, 120 input / 30 output tokens each
      usage: { modelCalls: 8, inputTokens: 960, outputTokens: 240, costUsd: null },
    });
  });

  it("reads the session file the real CLI wrote for the runner's run", () => {
    const run = readOnlyRun(claudeCodeSession, generated("generated_session.jsonl"));
    expect(run.steps.map((s) => s.kind).join(" ")).toBe(
      "message message tool_call observation tool_call shell message",
    );
    expect(run.steps[5]).toMatchObject({ command: "cat hello.txt && ls", exitCode: 1 });
    expect(run).toMatchObject({
      workspaceRoot: "/tmp/research/run/cc_work",
      agent: { frameworkVersion: "2.1.197", model: "claude-sonnet-4-5" },
      task: { prompt: "Create hello.txt then show it" },
    });
  });

  it("detects session files by their records, not stream-json", () => {
    expect(claudeCodeSession.detect(generated("generated_session.jsonl"))).toBe(true);
    expect(claudeCodeSession.detect(fixtureFile("claude-code-session/subagent_session.jsonl"))).toBe(true);
    expect(claudeCodeSession.detect(generated("generated_stream.jsonl"))).toBe(false);
    expect(claudeCodeStream.detect(generated("generated_session.jsonl"))).toBe(false);
    expect(claudeCodeSession.detect(textFile("x.jsonl", '{"type":"init","session_id":"a"}\n'))).toBe(false);
  });

  it("names the file and line of bad input", () => {
    const line = (over: object) => JSON.stringify({ type: "user", sessionId: "s", parentUuid: null, ...over });
    expect(readError(claudeCodeSession, textFile("a.jsonl", `${line({})}\n{"type":"user",`))).toMatch(
      /ForeignFormatError: a\.jsonl \(line 2\): is not valid JSON/,
    );
    expect(readError(claudeCodeSession, textFile("b.jsonl", `${line({ message: { content: 42 } })}\n`))).toMatch(
      /b\.jsonl \(line 1, message\.content\)/,
    );
    expect(readError(claudeCodeSession, textFile("c.jsonl", `${line({ isSidechain: "yes" })}\n`))).toMatch(
      /c\.jsonl \(line 1, isSidechain\)/,
    );
    expect(readError(claudeCodeSession, textFile("d.jsonl", ""))).toMatch(/d\.jsonl: is empty/);
    expect(readError(claudeCodeSession, textFile("e.jsonl", "[1]\n"))).toMatch(/e\.jsonl \(line 1\)/);
  });

  it("refuses a huge single line without parsing it", () => {
    const huge = { name: "huge.jsonl", data: Buffer.alloc(33 * 1024 * 1024, 0x20) };
    huge.data.write('{"type":"user","message":{"content":"', 0);
    expect(readError(claudeCodeSession, huge)).toMatch(/huge\.jsonl \(line 1\): is over/);
    expect(claudeCodeSession.detect(huge)).toBe(false);
  });
});

describeWithTestData("Claude Code sessions of real users", "fixtures/trajectories/claude-code", (dir) => {
  it("reads session_short.jsonl: a rejected Bash call is no shell step; the prompt, cwd and model", () => {
    const run = readOnlyRun(claudeCodeSession, fileAt(path.join(dir, "session_short.jsonl")));
    expect(run).toMatchObject({
      task: { prompt: "mix phx.server doesnt seem to start" },
      agent: { framework: "claude-code", frameworkVersion: "2.1.38", model: "claude-opus-4-6" },
      workspaceRoot: "/home/marco/projects/spotter",
    });
    expect(run.steps.filter((s) => s.kind === "tool_call")).toHaveLength(2);
    // The user rejected the Bash call: it never ran, so it is no shell step.
    expect(run.steps.filter((s) => s.kind === "shell")).toHaveLength(0);
    expect(run.steps[5]).toMatchObject({
      kind: "observation",
      callId: "toolu_0116Hyi5v8ut7Ffb7d8qV1Sc",
      isError: true,
      text: expect.stringMatching(/^The user doesn't want/),
    });
  });

  it("reads session_tool_heavy.jsonl: every result answers a call of the transcript", () => {
    const run = readOnlyRun(claudeCodeSession, fileAt(path.join(dir, "session_tool_heavy.jsonl")));
    const calls = run.steps.filter((s) => s.kind === "tool_call");
    expect(calls.map((c) => c.kind === "tool_call" && c.tool)).toEqual([
      "Bash",
      "Bash",
      "WebSearch",
      "Glob",
      "Read",
      "WebFetch",
    ]);
    const ids = new Set(calls.map((c) => c.callId));
    for (const s of run.steps) if (s.kind === "observation" || s.kind === "shell") expect(ids.has(s.callId)).toBe(true);
    // The first Bash call runs in the background: it has not finished when its result comes.
    expect(run.steps.find((s) => s.kind === "shell")).toMatchObject({ command: "mix phx.server", exitCode: null });
    expect(run.steps.filter((s) => s.kind === "shell").map((s) => s.kind === "shell" && s.exitCode)).toEqual([null, 0]);
  });
});
