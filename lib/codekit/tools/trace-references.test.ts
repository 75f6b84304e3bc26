import { afterAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import { runCodekitTool } from "../index";
import { makeRepo, SMALL_REPO } from "../repo.fixture";

const root = makeRepo(SMALL_REPO);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("trace_references on a hand-made repository", () => {
  it("finds imports, re-exports, __all__, calls and attribute chains", async () => {
    const result = await runCodekitTool(root, "trace_references", { symbol: "pkg.util.helper" });
    expect(result.isError).toBe(false);
    const lines = result.text.split("\n").slice(1);
    expect(lines).toEqual([
      "app.py:2 import: from pkg import helper",
      "app.py:7 call: a = helper(2)",
      "app.py:8 attribute: b = pkg.util.helper(3)",
      "app.py:9 attribute: return u.helper(a + b)",
      "pkg/__init__.py:1 re-export: from .util import helper",
      'pkg/__init__.py:2 __all__: __all__ = ["helper"]',
      "pkg/util.py:24 call: return helper(1)",
    ]);
  });

  it("finds the one file defining a bare name, or the file given as path", async () => {
    const bare = await runCodekitTool(root, "trace_references", { symbol: "helper" });
    expect(bare.text).toMatch(/^7 reference\(s\) to helper \(defined in pkg\/util.py:5\)/);
    const withPath = await runCodekitTool(root, "trace_references", { symbol: "Box", path: "pkg/util.py" });
    expect(withPath.text).toContain("other.py:1 import: from pkg.util import Box");
    expect(withPath.text).toContain("other.py:5 call: return Box().size()");
  });

  it("matches a method by attribute name", async () => {
    const result = await runCodekitTool(root, "trace_references", { symbol: "pkg.util.Box.size" });
    expect(result.text).toContain("other.py:5 attribute: return Box().size()");
  });

  it("refuses a name defined in several files, or in none", async () => {
    const twice = makeRepo({ "a.py": "def f():\n    pass\n", "b.py": "def f():\n    pass\n" });
    const result = await runCodekitTool(twice, "trace_references", { symbol: "f" });
    expect(result).toEqual({
      isError: true,
      text: "f is defined in 2 files (a.py, b.py); say which one with path, or use its dotted module path.",
    });
    const none = await runCodekitTool(twice, "trace_references", { symbol: "g" });
    expect(none.isError).toBe(true);
    expect(none.text).toContain("No module of the workspace defines g");
    fs.rmSync(twice, { recursive: true, force: true });
  });

  it("traces a name defined twice in one file without asking for name#n", async () => {
    const result = await runCodekitTool(root, "trace_references", { symbol: "pkg.util.Box.value" });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("pkg/util.py:19 use: @value.setter");
  });

  it("reports an attribute read on the symbol as an attribute reference", async () => {
    const repo = makeRepo({
      "n.py": "class Node:\n    @staticmethod\n    def load():\n        pass\n",
      "m.py": "from n import Node\nx = Node.load()\n",
    });
    const result = await runCodekitTool(repo, "trace_references", { symbol: "n.Node" });
    expect(result.text.split("\n").slice(1)).toEqual([
      "m.py:1 import: from n import Node",
      "m.py:2 attribute: x = Node.load()",
    ]);
    fs.rmSync(repo, { recursive: true, force: true });
  });
});
