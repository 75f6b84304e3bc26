import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/runner/sandbox";
import { createFileTools } from "./file-tools";
import type { ToolSet } from "./types";

let root: string;
let workspace: string;
let outside: string;
let tools: ToolSet;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "file-tools-test-")));
  workspace = path.join(root, "workspace");
  outside = path.join(root, "outside");
  await fs.mkdir(path.join(workspace, "pkg"), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(workspace, "pkg", "mod.py"), "def f():\n    return 1\n");
  await fs.writeFile(path.join(outside, "secret.txt"), "secret");
  await fs.symlink("pkg/mod.py", path.join(workspace, "inner-link.py"));
  await fs.symlink(outside, path.join(workspace, "out-dir"));
  await fs.symlink(path.join(outside, "new.txt"), path.join(workspace, "dangling-out"));
  const sandbox = await createSandbox({ workspaceDir: workspace, runDir: path.join(root, "run") });
  tools = createFileTools({ workspaceDir: workspace, sandbox, limits: { timeoutMs: 3_000, maxOutputBytes: 50_000 } });
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("file tools", () => {
  it("exposes the five tools", () => {
    expect(tools.specs.map((s) => s.name)).toEqual([
      "read_file",
      "write_file",
      "delete_file",
      "list_dir",
      "run_python",
    ]);
  });

  it("read_file returns the content and records a read, for relative, absolute and inner-symlink paths", async () => {
    expect(await tools.execute("read_file", { path: "pkg/mod.py" })).toEqual({
      output: "def f():\n    return 1\n",
      isError: false,
      fileActions: [{ kind: "read", path: "pkg/mod.py" }],
    });
    const absolute = await tools.execute("read_file", { path: path.join(workspace, "pkg", "mod.py") });
    expect(absolute.fileActions).toEqual([{ kind: "read", path: "pkg/mod.py" }]);
    expect((await tools.execute("read_file", { path: "inner-link.py" })).output).toContain("def f()");
    const missing = await tools.execute("read_file", { path: "nope.py" });
    expect(missing).toMatchObject({ isError: true, fileActions: [] });
    expect(missing.output).toMatch(/No such file/);
  });

  it("write_file creates parents, overwrites, and records a write", async () => {
    const result = await tools.execute("write_file", { path: "new/dir/a.txt", content: "héllo" });
    expect(result).toEqual({
      output: "Wrote 6 bytes to new/dir/a.txt.",
      isError: false,
      fileActions: [{ kind: "write", path: "new/dir/a.txt" }],
    });
    await tools.execute("write_file", { path: "new/dir/a.txt", content: "bye" });
    expect(await fs.readFile(path.join(workspace, "new/dir/a.txt"), "utf8")).toBe("bye");
  });

  it("delete_file deletes files (a symlink itself, never its target) but not folders", async () => {
    await fs.writeFile(path.join(workspace, "gone.txt"), "x");
    expect(await tools.execute("delete_file", { path: "gone.txt" })).toEqual({
      output: "Deleted gone.txt.",
      isError: false,
      fileActions: [{ kind: "delete", path: "gone.txt" }],
    });
    await expect(fs.access(path.join(workspace, "gone.txt"))).rejects.toThrow();
    expect((await tools.execute("delete_file", { path: "pkg" })).output).toMatch(/is a folder/);
    await fs.symlink("pkg/mod.py", path.join(workspace, "spare-link"));
    expect((await tools.execute("delete_file", { path: "spare-link" })).isError).toBe(false);
    expect(await fs.readFile(path.join(workspace, "pkg", "mod.py"), "utf8")).toContain("def f()");
  });

  it("list_dir lists entries with folders marked", async () => {
    const result = await tools.execute("list_dir", { path: "." });
    expect(result.isError).toBe(false);
    expect(result.output.split("\n")).toEqual(expect.arrayContaining(["pkg/", "inner-link.py"]));
    expect(result.fileActions).toEqual([]);
  });

  it("run_python runs in the workspace through the sandbox and reports failures", async () => {
    const ok = await tools.execute("run_python", { code: "import os\nprint(os.getcwd())\nprint('it''s')" });
    expect(ok.isError).toBe(false);
    expect(ok.output).toBe(`${workspace}\nits`);
    expect(ok.shell).toMatchObject({ exitCode: 0, timedOut: false });
    expect(ok.shell!.command).toMatch(/^python3 -c '/);
    const bad = await tools.execute("run_python", { code: "raise SystemExit(4)" });
    expect(bad).toMatchObject({ isError: true, output: "[Exit code 4.]" });
  });

  it.each([
    ["a parent folder", "read_file", { path: "../outside/secret.txt" }],
    ["an absolute path elsewhere", "read_file", { path: "/etc/hostname" }],
    ["a symlinked folder", "read_file", { path: "out-dir/secret.txt" }],
    ["a symlinked folder", "write_file", { path: "out-dir/planted.txt", content: "x" }],
    ["a dangling symlink", "write_file", { path: "dangling-out", content: "x" }],
    ["a symlinked folder", "delete_file", { path: "out-dir/secret.txt" }],
    ["a symlinked folder", "list_dir", { path: "out-dir" }],
  ])("refuses a path out of the workspace through %s (%s)", async (_how, tool, args) => {
    const result = await tools.execute(tool, args);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^Refused: the path .* tools may only touch files inside the workspace\.$/);
    expect(result.fileActions).toEqual([]);
    expect(await fs.readdir(outside)).toEqual(["secret.txt"]);
  });

  it("answers unknown tools and bad arguments with errors, not exceptions", async () => {
    expect((await tools.execute("rm_rf", {})).output).toMatch(/Unknown tool rm_rf/);
    expect((await tools.execute("write_file", { path: "x" })).output).toMatch(
      /Invalid arguments for write_file: content/,
    );
  });
});

describe("file tools on what a command left", () => {
  it("read_file refuses a FIFO at once instead of blocking, and a file past the read bound", async () => {
    execFileSync("mkfifo", [path.join(workspace, "pipe")]);
    const fifo = await tools.execute("read_file", { path: "pipe" });
    expect(fifo).toMatchObject({ isError: true, fileActions: [] });
    expect(fifo.output).toMatch(/pipe is a FIFO \(not read\)/);
    await fs.writeFile(path.join(workspace, "huge.bin"), Buffer.alloc(17 * 1024 * 1024));
    const huge = await tools.execute("read_file", { path: "huge.bin" });
    expect(huge.output).toMatch(/over the limit of 16777216/);
  });
});
