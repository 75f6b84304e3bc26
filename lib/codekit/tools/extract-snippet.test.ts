import { afterAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { runCodekitTool } from "../index";
import { makeRepo, SMALL_REPO } from "../repo.fixture";

const root = makeRepo(SMALL_REPO);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("extract_snippet on a hand-made repository", () => {
  it("returns the exact source of a definition with its span", async () => {
    const result = await runCodekitTool(root, "extract_snippet", { path: "pkg/util.py", qualname: "helper" });
    expect(result).toEqual({
      isError: false,
      text: 'pkg/util.py:5-7\ndef helper(x):\n    """Double x."""\n    return x * 2',
    });
  });

  it("includes decorators, and asks for name#n when a name is defined twice", async () => {
    const ambiguous = await runCodekitTool(root, "extract_snippet", { path: "pkg/util.py", qualname: "Box.value" });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toContain("Box.value is defined 2 times in pkg/util.py");
    expect(ambiguous.text).toContain("Box.value#2 (line 20)");
    const setter = await runCodekitTool(root, "extract_snippet", { path: "pkg/util.py", qualname: "Box.value#2" });
    expect(setter.text).toBe("pkg/util.py:19-21\n    @value.setter\n    def value(self, v):\n        self._v = v");
  });

  it("refuses a missing definition with the near names, and paths outside the workspace", async () => {
    const missing = await runCodekitTool(root, "extract_snippet", { path: "pkg/util.py", qualname: "Other.size" });
    expect(missing.text).toBe("No function or method or class named Other.size in pkg/util.py. Did you mean Box.size?");
    const outside = await runCodekitTool(root, "extract_snippet", { path: "../etc/passwd.py", qualname: "f" });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain("outside the workspace");
  });

  it("refuses a symlink leading out of the workspace and a file that is not Python", async () => {
    const outsideDir = makeRepo({ "secret.py": "def f():\n    pass\n" });
    fs.symlinkSync(path.join(outsideDir, "secret.py"), path.join(root, "link.py"));
    const link = await runCodekitTool(root, "extract_snippet", { path: "link.py", qualname: "f" });
    expect(link.isError).toBe(true);
    expect(link.text).toContain("out of the workspace");
    const notPython = await runCodekitTool(root, "extract_snippet", { path: "README.md", qualname: "f" });
    expect(notPython.text).toBe("README.md is not a Python (.py) file.");
    fs.rmSync(outsideDir, { recursive: true, force: true });
  });

  it("refuses a FIFO without blocking on it", async () => {
    execFileSync("mkfifo", [path.join(root, "pipe.py")]);
    const result = await runCodekitTool(root, "extract_snippet", { path: "pipe.py", qualname: "f" });
    expect(result).toEqual({ isError: true, text: "Cannot read pipe.py: pipe.py is a FIFO (not read)." });
  });
});
