import { describe, expect, it } from "vitest";
import { geminiCliSession } from "./gemini-cli-session";
import { runnerFixture } from "./cli-transcript.fixture";
import { fixtureFile, readError, readOnlyRun, textFile } from "./reader.fixture";

const generated = (name: string) => runnerFixture("gemini-cli", name);

describe("Gemini CLI session file", () => {
  it("reads the JSON Lines session the real CLI wrote: repeated records once, the workspace from its session context", () => {
    const run = readOnlyRun(geminiCliSession, generated("generated_session.jsonl"));
    expect(run.steps.map((s) => s.kind).join(" ")).toBe(
      "message message tool_call observation tool_call shell message",
    );
    expect(run.steps[3]).toMatchObject({ text: expect.stringContaining("Successfully created"), isError: false });
    expect(run.steps[5]).toMatchObject({ command: "cat hello.txt && ls", exitCode: 0 });
    expect(run).toMatchObject({
      task: { prompt: "Create hello.txt then show it" },
      agent: { framework: "gemini-cli", model: "gemini-3.1-pro-preview" },
      workspaceRoot: "/tmp/research/run/gm_work",
      usage: { modelCalls: 3, inputTokens: 450, outputTokens: 50 },
    });
  });

  it("reads the one-document session of earlier versions, with read_file's text and the exit code the model saw", () => {
    const run = readOnlyRun(geminiCliSession, fixtureFile("gemini-cli-session/read_session.json"));
    expect(run.steps.map((s) => s.kind).join(" ")).toBe(
      "message message tool_call observation tool_call shell message",
    );
    expect(run.steps[3]).toMatchObject({
      callId: "read_file-1757412000100-1",
      text: "def first(lines):\n    return lines[0]\n",
    });
    expect(run.steps[5]).toMatchObject({ exitCode: 1 });
    expect(run).toMatchObject({
      task: { prompt: "Why does notes.py crash on an empty file?" },
      workspaceRoot: "/home/dev/notes",
    });
  });

  it("beside the stream-json output of the same session, is read into the stream's run and yields none of its own", () => {
    const session = generated("generated_session.jsonl");
    expect(geminiCliSession.read(session, { siblings: [generated("generated_stream.jsonl")] })).toEqual([]);
    const otherStream = textFile("stream.jsonl", '{"type":"init","session_id":"another","model":"auto"}\n');
    expect(geminiCliSession.read(session, { siblings: [otherStream] })).toHaveLength(1);
  });

  it("detects session files in both forms, not streams", () => {
    expect(geminiCliSession.detect(generated("generated_session.jsonl"))).toBe(true);
    expect(geminiCliSession.detect(fixtureFile("gemini-cli-session/read_session.json"))).toBe(true);
    expect(geminiCliSession.detect(generated("generated_stream.jsonl"))).toBe(false);
    expect(geminiCliSession.detect(textFile("x.json", '{\n  "name": "package"\n}\n'))).toBe(false);
  });

  it("names the file and where of bad input", () => {
    expect(readError(geminiCliSession, textFile("a.jsonl", '{"sessionId":"s","projectHash":"p"}\n{"id":'))).toMatch(
      /a\.jsonl \(line 2\): is not valid JSON/,
    );
    expect(
      readError(geminiCliSession, textFile("b.jsonl", '{"id":"g","type":"gemini","toolCalls":{"id":"x"}}\n')),
    ).toMatch(/b\.jsonl \(line 1, toolCalls\)/);
    expect(
      readError(geminiCliSession, textFile("c.json", '{\n  "sessionId": "s",\n  "messages": [{"id": 1}]\n}\n')),
    ).toMatch(/c\.json \(messages\[0\]\.id\)/);
    expect(readError(geminiCliSession, textFile("d.json", '{\n  "sessionId": "s",\n  "messages": ['))).toMatch(
      /d\.json \(line 3\)/,
    );
    expect(readError(geminiCliSession, textFile("e.jsonl", ""))).toMatch(/e\.jsonl: is empty/);
  });
});
