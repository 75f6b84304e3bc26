import { describe, expect, it } from "vitest";
import {
  DESCRIBED_ARGUMENT_NAMES,
  FRAMEWORKS,
  MERGE_WINNERS,
  frameworkTools,
  mergedTools,
  persistentShell,
  pythonFunctionEffect,
  shellCommandTool,
  submissionMarkers,
  toolEffect,
} from "./index";

describe("tool registry", () => {
  it("has no conflicts between frameworks but the ones MERGE_WINNERS settles", () => {
    const { conflicts } = mergedTools();
    expect([...conflicts.keys()].sort()).toEqual(Object.keys(MERGE_WINNERS).sort());
  });

  it("finds frameworks by id and alias, ignoring case", () => {
    expect(frameworkTools("file-tools")?.id).toBe("builtin");
    expect(frameworkTools("Claude-Code")?.id).toBe("claude-code");
    expect(frameworkTools("inspect_ai")?.id).toBe("inspect");
    expect(frameworkTools("command")).toBeNull();
  });

  it("prefers the framework's own description, then the merged one", () => {
    expect(toolEffect("swe-agent", "edit")).toMatchObject({ effect: "edit", actsOnOpenFile: true });
    expect(toolEffect(null, "edit")).toMatchObject({ effect: "edit", pathArgs: ["path", "file_path"] });
    expect(toolEffect("claude-code", "Read")).toMatchObject({ effect: "read", pathArgs: ["file_path"] });
    expect(toolEffect(null, "read_file")?.pathArgs).toEqual(
      expect.arrayContaining(["path", "absolute_path", "file_path", "file_name"]),
    );
    expect(toolEffect("inspect", "bash")?.commandArgs).toEqual(["cmd", "command"]);
    expect(toolEffect(null, "bash")?.commandArgs).toEqual(expect.arrayContaining(["command", "cmd"]));
    expect(toolEffect("codex", "apply_patch")).toMatchObject({ effect: "patch", patchArgs: ["input", "patch"] });
    expect(toolEffect(null, "no_such_tool")).toBeNull();
  });

  it("says which shells keep their working directory", () => {
    expect(FRAMEWORKS.map((f) => [f.id, f.persistentShell])).toEqual([
      ["builtin", true],
      ["openhands", true],
      ["swe-agent", true],
      ["mini-swe-agent", false],
      ["claude-code", true],
      ["codex", false],
      ["gemini-cli", false],
      ["smolagents", false],
      ["agno", false],
      ["inspect", false],
      ["anthropic", true],
      ["codekit", false],
    ]);
    expect(persistentShell("terminal-editor")).toBe(true);
    expect(persistentShell(null)).toBeNull();
  });

  it("knows SWE-agent's shell commands and smolagents' Python functions", () => {
    expect(shellCommandTool("swe-agent", "open")).toMatchObject({
      effect: "read",
      positional: ["path", "line_number"],
    });
    expect(shellCommandTool("claude-code", "open")).toBeNull();
    expect(shellCommandTool(null, "open")?.effect).toBe("read");
    expect(pythonFunctionEffect("smolagents", "read_file")?.effect).toBe("read");
    expect(pythonFunctionEffect("codex", "read_file")).toBeNull();
  });
});

describe("MCP tools", () => {
  it("are described by the tool's own name", () => {
    expect(toolEffect("claude-code", "mcp__filesystem__read_file")?.effect).toBe("read");
    expect(toolEffect(null, "mcp__my_server__unknown")).toBeNull();
    // Gemini CLI's form, server and tool both free to hold underscores.
    expect(toolEffect("gemini-cli", "mcp_codekit_extract_snippet")).toEqual(toolEffect(null, "extract_snippet"));
    expect(toolEffect("gemini-cli", "mcp_code_kit_modify_function")?.effect).toBe("edit");
    expect(toolEffect("gemini-cli", "mcp_codekit_unknown")).toBeNull();
  });
});

describe("Anthropic's text editor tool", () => {
  it("is the str_replace_editor family under both its names, whatever the framework", () => {
    for (const name of ["str_replace_based_edit_tool", "str_replace_editor"]) {
      for (const framework of ["anthropic", "claude-code", "inspect", null]) {
        expect(toolEffect(framework, name)).toMatchObject({
          effect: "edit",
          pathArgs: ["path"],
          subcommandArg: "command",
          subcommands: { view: "read", create: "write", str_replace: "edit", insert: "edit" },
        });
      }
    }
  });
});

describe("submission markers", () => {
  it("are mini-swe-agent's, and every framework's when the framework is unknown", () => {
    const markers = ["COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "MINI_SWE_AGENT_FINAL_OUTPUT"];
    expect(submissionMarkers("mini-swe-agent")).toEqual(markers);
    expect(submissionMarkers(null)).toEqual(markers);
    expect(submissionMarkers("claude-code")).toEqual([]);
    // SWE-agent submits with a tool, which touches nothing.
    expect(toolEffect("swe-agent", "submit")?.effect).toBe("other");
  });
});

describe("described argument names", () => {
  it("list the path arguments first, then commands and code, each once", () => {
    const names = [...DESCRIBED_ARGUMENT_NAMES];
    expect(names[0]).toBe("path");
    expect(new Set(names).size).toBe(names.length);
    for (const name of ["file_path", "absolute_path", "notebook_path", "paths", "pattern", "command", "cmd", "code"])
      expect(names).toContain(name);
    expect(names.indexOf("notebook_path")).toBeLessThan(names.indexOf("cmd"));
  });
});

describe("tools typed in SWE-agent's shell", () => {
  it("include its str_replace_editor, whose words are the subcommand and the path", () => {
    expect(shellCommandTool("swe-agent", "str_replace_editor")).toMatchObject({
      positional: ["command", "path"],
      subcommands: { view: "read" },
    });
    expect(shellCommandTool("openhands", "str_replace_editor")).toBeNull();
  });
});
