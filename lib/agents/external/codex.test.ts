import { describe, expect, it } from "vitest";
import { normalizeCodexExec } from "./codex";
import { expectValidSteps, kinds, readFixture, writes } from "./transcript.fixture";

describe("Codex transcripts", () => {
  it("normalizes exec --json: commands with exit codes and output, the answer, usage", () => {
    const result = normalizeCodexExec(
      readFixture("codex/generated_exec.jsonl"),
      "exec",
      "Create hello.txt then show it",
    );
    expectValidSteps(result);
    expect(kinds(result)).toEqual(["message", "message", "tool_call", "shell", "tool_call", "shell", "message"]);
    expect(result.steps[5]).toMatchObject({ exitCode: 0, output: "hello from mock\nhello.txt\n" });
    expect(writes(result)).toContain("hello.txt");
    expect(result.finalAnswer).toBe("Done: created hello.txt and printed it.");
    expect(result.usage).toMatchObject({ inputTokens: 300, outputTokens: 60 });
    expect(result.sessionId).toBe("01a2363f-61eb-7492-a582-d375c432ba5e");
  });
});

describe("Codex MCP tool calls", () => {
  it("names a call as the model made it (mcp__<server>__<tool>), its result as the tool's text", () => {
    // As Codex 0.171 printed them for the Code-KIT MCP server (lib/runner/codekit-mcp-cli.test.ts).
    const item = (id: string, tool: string, status: string, text: string) =>
      JSON.stringify({
        type: "item.completed",
        item: {
          id,
          type: "mcp_tool_call",
          server: "codekit",
          tool,
          arguments: { path: "a.py", qualname: "f" },
          result: { content: [{ type: "text", text }], structured_content: null },
          error: null,
          status,
        },
      });
    const result = normalizeCodexExec(
      [
        item("item_1", "extract_snippet", "completed", "a.py:1-2\ndef f(): ..."),
        item("item_2", "modify_function", "failed", "Refused: no"),
      ].join("\n"),
      "exec",
    );
    expectValidSteps(result);
    expect(
      result.steps.map((s) =>
        s.kind === "tool_call" ? s.tool : s.kind === "observation" ? [s.text, s.isError] : s.kind,
      ),
    ).toEqual([
      "mcp__codekit__extract_snippet",
      ["a.py:1-2\ndef f(): ...", false],
      "mcp__codekit__modify_function",
      ["Refused: no", true],
    ]);
  });
});
