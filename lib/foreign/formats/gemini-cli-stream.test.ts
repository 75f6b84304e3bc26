import { describe, expect, it } from "vitest";
import { geminiCliStream } from "./gemini-cli-stream";
import { runnerFixture } from "./cli-transcript.fixture";
import { fixtureFile, readError, readOnlyRun, textFile } from "./reader.fixture";

const generated = (name: string) => runnerFixture("gemini-cli", name);

describe("Gemini CLI stream-json output", () => {
  it("alone: write_file's empty output stays empty, shell exit codes unknown, the model from the stats not the router", () => {
    const run = readOnlyRun(geminiCliStream, generated("generated_stream.jsonl"));
    expect(run.steps.map((s) => s.kind).join(" ")).toBe(
      "message message tool_call observation tool_call shell message",
    );
    expect(run.steps[3]).toMatchObject({ kind: "observation", text: "", isError: false, durationMs: 12 });
    expect(run.steps[5]).toMatchObject({ command: "cat hello.txt && ls", exitCode: null });
    expect(run).toMatchObject({
      task: { prompt: "Create hello.txt then show it" },
      agent: { framework: "gemini-cli", model: "gemini-3.1-pro-preview" },
      workspaceRoot: null,
      usage: { inputTokens: 450, outputTokens: 50 },
    });
  });

  it("with its session file beside it: tool output, exit codes, workspace and model calls from the session", () => {
    const [run] = geminiCliStream.read(generated("generated_stream.jsonl"), {
      siblings: [generated("generated_session.jsonl")],
    });
    expect(run!.steps[3]).toMatchObject({
      kind: "observation",
      text: expect.stringContaining("Successfully created and wrote to new file"),
    });
    expect(run!.steps[5]).toMatchObject({ exitCode: 0, output: "hello from mock\nhello.txt" });
    expect(run).toMatchObject({ workspaceRoot: "/tmp/research/run/gm_work", usage: { modelCalls: 3 } });
  });

  it("takes read_file's text and a failed command's exit code from a one-document session of the same session id", () => {
    const stream = fixtureFile("gemini-cli-stream/read_stream.jsonl");
    const session = fixtureFile("gemini-cli-session/read_session.json");
    const [run] = geminiCliStream.read(stream, { siblings: [session] });
    expect(run!.steps[3]).toMatchObject({ kind: "observation", text: "def first(lines):\n    return lines[0]\n" });
    expect(run!.steps[5]).toMatchObject({ kind: "shell", command: "python notes.py empty.txt", exitCode: 1 });
    expect(run!.steps[6]).toMatchObject({ text: "first() indexes lines[0] without checking for an empty list." });
    expect(run).toMatchObject({ workspaceRoot: "/home/dev/notes", agent: { model: "gemini-2.5-pro" } });
    // a session of another session id is not this run's
    const other = textFile("session-other.jsonl", '{"sessionId":"other","projectHash":"x"}\n');
    expect(geminiCliStream.read(stream, { siblings: [other] })[0]!.steps[3]).toMatchObject({ text: "" });
  });

  it("detects the stream, not session files or Claude Code's stream", () => {
    expect(geminiCliStream.detect(generated("generated_stream.jsonl"))).toBe(true);
    expect(geminiCliStream.detect(generated("generated_session.jsonl"))).toBe(false);
    expect(geminiCliStream.detect(fixtureFile("gemini-cli-session/read_session.json"))).toBe(false);
    expect(
      geminiCliStream.detect(
        textFile("c.jsonl", '{"type":"system","subtype":"init","session_id":"a","claude_code_version":"2"}\n'),
      ),
    ).toBe(false);
  });

  it("names the file and line of bad input", () => {
    expect(readError(geminiCliStream, textFile("s.jsonl", '{"type":"init","session_id":"a"}\n{"type":"mess'))).toMatch(
      /s\.jsonl \(line 2\): is not valid JSON/,
    );
    expect(
      readError(geminiCliStream, textFile("t.jsonl", '{"type":"tool_result","tool_id":"x","output":["a"]}\n')),
    ).toMatch(/t\.jsonl \(line 1, output\)/);
    expect(readError(geminiCliStream, textFile("e.jsonl", ""))).toMatch(/e\.jsonl: is empty/);
  });
});
