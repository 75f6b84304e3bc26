import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSandbox, type ProcessSandbox } from "@/lib/runner/sandbox";
import { createTerminalEditorTools } from "./terminal-editor";
import type { ToolSet } from "./types";

let root: string;
let workspace: string;
let sandbox: ProcessSandbox;
let tools: ToolSet;
const LIMITS = { timeoutMs: 3_000, maxOutputBytes: 50_000 };
const FILE = "pkg/mod.py";
const SOURCE = "import os\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 1\n";

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "terminal-editor-test-")));
  workspace = path.join(root, "workspace");
  await fs.mkdir(path.join(workspace, "pkg", "sub", "deep"), { recursive: true });
  await fs.mkdir(path.join(workspace, ".git"));
  await fs.writeFile(path.join(workspace, "pkg", "sub", "deep", "x.py"), "");
  await fs.writeFile(path.join(workspace, "README.md"), "# r\n");
  await fs.symlink("/etc", path.join(workspace, "etc-link"));
  sandbox = await createSandbox({ workspaceDir: workspace, runDir: path.join(root, "run") });
});
beforeEach(async () => {
  await fs.writeFile(path.join(workspace, FILE), SOURCE);
  tools = createTerminalEditorTools({ workspaceDir: workspace, sandbox, limits: LIMITS });
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const edit = (args: Record<string, unknown>) => tools.execute("str_replace_editor", { path: FILE, ...args });
const content = () => fs.readFile(path.join(workspace, FILE), "utf8");

describe("bash", () => {
  it("runs in the workspace, reports the exit code and keeps the working directory", async () => {
    const first = await tools.execute("bash", { command: "echo hi; cd pkg && ls" });
    expect(first.output).toBe(
      `hi\nmod.py\nsub\n[Current working directory: ${workspace}/pkg]\n[The command completed with exit code 0.]`,
    );
    expect(first.isError).toBe(false);
    expect(first.shell).toMatchObject({ command: "echo hi; cd pkg && ls", exitCode: 0, output: "hi\nmod.py\nsub\n" });
    const second = await tools.execute("bash", { command: "pwd; false" });
    expect(second.output).toContain(`${workspace}/pkg\n`);
    expect(second.output).toMatch(/\[The command completed with exit code 1\.\]$/);
    expect(second.isError).toBe(true);
  });

  it("survives a syntax error and reports a timeout", async () => {
    const broken = await tools.execute("bash", { command: "echo 'unclosed" });
    expect(broken.output).toMatch(/unexpected EOF/);
    expect(broken.output).toMatch(/exit code 2/);
    const slow = await tools.execute("bash", { command: "sleep 5", timeout: 0.3 });
    expect(slow.output).toMatch(/\[The command timed out after 0.3 seconds and was stopped\.\]$/);
    expect(slow.shell?.timedOut).toBe(true);
  });
});

describe("str_replace_editor", () => {
  it("view shows cat -n numbered lines, whole or a range, and records a read", async () => {
    const whole = await edit({ command: "view" });
    expect(whole.output).toBe(
      `Here's the result of running \`cat -n\` on ${FILE}:\n` +
        SOURCE.trimEnd()
          .split("\n")
          .map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)
          .join("\n") +
        "\n",
    );
    expect(whole.fileActions).toEqual([{ kind: "read", path: FILE }]);
    expect((await edit({ command: "view", view_range: [4, 5] })).output).toBe(
      `Here's the result of running \`cat -n\` on ${FILE}:\n     4\tdef f():\n     5\t    return 1\n`,
    );
    expect((await edit({ command: "view", view_range: [8, -1] })).output).toContain("     9\t    return 1\n");
    expect((await edit({ command: "view", view_range: [0, 3] })).output).toMatch(/first element `0`.*\[1, 9\]/);
  });

  it("view of a folder lists two levels, hidden items left out", async () => {
    const result = await tools.execute("str_replace_editor", { command: "view", path: workspace });
    expect(result.output.split("\n")).toEqual([
      `Here's the files and directories up to 2 levels deep in ${workspace}, excluding hidden items:`,
      `${workspace}/`,
      `${workspace}/README.md`,
      `${workspace}/etc-link`,
      `${workspace}/pkg/`,
      `${workspace}/pkg/mod.py`,
      `${workspace}/pkg/sub/`,
      "",
      `1 hidden files/directories in this directory are excluded. You can use 'ls -la ${workspace}' to see them.`,
    ]);
    expect(result.fileActions).toEqual([]);
  });

  it("create writes a new file and refuses to overwrite", async () => {
    const result = await tools.execute("str_replace_editor", { command: "create", path: "new/b.py", file_text: "b\n" });
    expect(result).toEqual({
      output: "File created successfully at: new/b.py",
      isError: false,
      fileActions: [{ kind: "write", path: "new/b.py" }],
    });
    const again = await tools.execute("str_replace_editor", { command: "create", path: "new/b.py", file_text: "c" });
    expect(again.output).toMatch(/File already exists at: new\/b.py. Cannot overwrite files using command `create`/);
    expect(await tools.execute("str_replace_editor", { command: "create", path: "c.py" })).toMatchObject({
      isError: true,
      output: "Parameter `file_text` is required for command: create.",
    });
  });

  it("str_replace needs a unique verbatim match and says where the duplicates are", async () => {
    const ambiguous = await edit({ command: "str_replace", old_str: "    return 1", new_str: "    return 2" });
    expect(ambiguous).toEqual({
      output:
        "No replacement was performed. Multiple occurrences of old_str `    return 1` in lines [5,9]. Please ensure it is unique.",
      isError: true,
      fileActions: [],
    });
    const missing = await edit({ command: "str_replace", old_str: "return 3", new_str: "x" });
    expect(missing.output).toBe(
      `No replacement was performed, old_str \`return 3\` did not appear verbatim in ${FILE}.`,
    );
    const done = await edit({
      command: "str_replace",
      old_str: "def g():\n    return 1",
      new_str: "def g():\n    return 2",
    });
    expect(done.isError).toBe(false);
    expect(done.fileActions).toEqual([{ kind: "write", path: FILE }]);
    expect(done.output).toContain(
      `The file ${FILE} has been edited. Here's the result of running \`cat -n\` on a snippet`,
    );
    expect(done.output).toContain("     9\t    return 2\n");
    expect(await content()).toBe(SOURCE.replace("def g():\n    return 1", "def g():\n    return 2"));
  });

  it("insert adds lines after the given line, 0 for the top", async () => {
    await edit({ command: "insert", insert_line: 0, new_str: '"""Doc."""' });
    const end = await edit({ command: "insert", insert_line: 10, new_str: "X = 1" });
    expect(end.fileActions).toEqual([{ kind: "write", path: FILE }]);
    expect(await content()).toBe(`"""Doc."""\n${SOURCE}X = 1\n`);
    expect((await edit({ command: "insert", insert_line: 99, new_str: "y" })).output).toMatch(
      /Invalid `insert_line` parameter: 99. It should be within the range of lines of the file: \[0, 11\]/,
    );
  });

  it("undo_edit restores the content before each edit in turn, and removes a created file", async () => {
    await edit({ command: "str_replace", old_str: "import os", new_str: "import sys" });
    await edit({ command: "insert", insert_line: 0, new_str: "# top" });
    expect((await edit({ command: "undo_edit" })).output).toMatch(/^Last edit to pkg\/mod.py undone successfully/);
    expect(await content()).toBe(SOURCE.replace("import os", "import sys"));
    await edit({ command: "undo_edit" });
    expect(await content()).toBe(SOURCE);
    expect((await edit({ command: "undo_edit" })).output).toBe(`No edit history found for ${FILE}.`);
    await tools.execute("str_replace_editor", { command: "create", path: "tmp.py", file_text: "t" });
    const undone = await tools.execute("str_replace_editor", { command: "undo_edit", path: "tmp.py" });
    expect(undone.fileActions).toEqual([{ kind: "delete", path: "tmp.py" }]);
    await expect(fs.access(path.join(workspace, "tmp.py"))).rejects.toThrow();
  });

  it.each([["../x.py"], ["/etc/passwd"], ["etc-link/passwd"]])("refuses %s, outside the workspace", async (p) => {
    for (const command of ["view", "create"]) {
      const result = await tools.execute("str_replace_editor", { command, path: p, file_text: "x" });
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/^Refused: the path/);
    }
  });
});

describe("task_tracker", () => {
  it("plans and shows a task list without touching files", async () => {
    expect((await tools.execute("task_tracker", { command: "view" })).output).toMatch(/No tasks found/);
    const planned = await tools.execute("task_tracker", {
      command: "plan",
      task_list: [
        { id: "1", title: "Read mod.py", status: "done" },
        { id: "2", title: "Edit f", status: "in_progress", notes: "keep the signature" },
      ],
    });
    expect(planned).toEqual({ output: "Task list has been updated with 2 items.", isError: false, fileActions: [] });
    expect((await tools.execute("task_tracker", { command: "view" })).output).toBe(
      "# Task List\n\n1. ✅ Read mod.py\n2. 🔄 Edit f\n   keep the signature",
    );
    expect((await tools.execute("task_tracker", { command: "plan" })).isError).toBe(true);
  });
});
