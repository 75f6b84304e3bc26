import { afterEach, beforeEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import { runCodekitTool } from "../index";
import { makeRepo, read, SMALL_REPO } from "../repo.fixture";

let root = "";
beforeEach(() => {
  root = makeRepo(SMALL_REPO);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const modify = (qualname: string, new_body: string) =>
  runCodekitTool(root, "modify_function", { path: "pkg/util.py", qualname, new_body });

describe("modify_function on a hand-made repository", () => {
  it("replaces only the body, keeping the docstring when the body leaves it out", async () => {
    const result = await modify("helper", "y = x + x\nreturn y");
    expect(result.isError).toBe(false);
    const after = read(root, "pkg/util.py");
    expect(after).toBe(SMALL_REPO["pkg/util.py"]!.replace("    return x * 2\n", "    y = x + x\n    return y\n"));
  });

  it("accepts the whole definition when its signature and docstring are unchanged, re-indenting a method", async () => {
    const result = await modify("Box.size", "def size(self):\n    return helper(2)\n");
    expect(result.isError).toBe(false);
    expect(read(root, "pkg/util.py")).toContain("    def size(self):\n        return helper(2)\n");
    const setter = await modify("Box.value#2", "self._v = v * 2");
    expect(setter.isError).toBe(false);
    expect(read(root, "pkg/util.py")).toContain(
      "    @value.setter\n    def value(self, v):\n        self._v = v * 2\n",
    );
  });

  it("refuses a change to the signature, the decorators or the docstring, leaving the file as it was", async () => {
    const signature = await modify("helper", 'def helper(x, y=1):\n    """Double x."""\n    return x * y');
    expect(signature.isError).toBe(true);
    expect(signature.text).toContain("Refused: modify_function changes only the body of helper");
    expect(signature.text).toContain("parameter `y`");
    const decorator = await modify("Box.value#2", "def value(self, v):\n    self._v = v");
    expect(decorator.text).toContain("decorator `@value.setter` removed");
    const docstring = await modify("helper", '"""Triple x."""\nreturn x * 3');
    expect(docstring.text).toContain("the docstring altered");
    expect(read(root, "pkg/util.py")).toBe(SMALL_REPO["pkg/util.py"]);
  });

  it("refuses a body reaching outside the function, one that does not parse, an empty one", async () => {
    const outside = await modify(
      "helper",
      'def helper(x):\n    """Double x."""\n    return x\n\n\ndef injected():\n    pass',
    );
    expect(outside.text).toContain("Refused: new_body reaches outside helper");
    const broken = await modify("helper", "return (x");
    expect(broken.text).toContain("would not parse");
    const empty = await modify("helper", "# nothing");
    expect(empty.text).toContain("new_body has no statement");
    expect(read(root, "pkg/util.py")).toBe(SMALL_REPO["pkg/util.py"]);
  });

  it("asks for name#n when the name is ambiguous, and reports bad arguments as errors", async () => {
    const ambiguous = await modify("Box.value", "return 1");
    expect(ambiguous.text).toContain("use Box.value#1 for the first");
    const bad = await runCodekitTool(root, "modify_function", { path: "pkg/util.py", qualname: "helper" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("Invalid arguments for modify_function");
    const unknown = await runCodekitTool(root, "rewrite_file", {});
    expect(unknown.text).toContain("Unknown tool rewrite_file");
  });

  it("rewrites a one-line function into a block", async () => {
    const repo = makeRepo({ "one.py": "def f(a): return a\n\n\nx = f(1)\n" });
    const result = await runCodekitTool(repo, "modify_function", {
      path: "one.py",
      qualname: "f",
      new_body: "b = a\nreturn b",
    });
    expect(result.isError).toBe(false);
    expect(read(repo, "one.py")).toBe("def f(a):\n    b = a\n    return b\n\n\nx = f(1)\n");
    fs.rmSync(repo, { recursive: true, force: true });
  });
});
