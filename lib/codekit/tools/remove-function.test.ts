import { afterEach, beforeEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import { runCodekitTool } from "../index";
import { makeRepo, read, SMALL_REPO } from "../repo.fixture";

let root = "";
beforeEach(() => {
  root = makeRepo(SMALL_REPO);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const remove = (qualname: string) => runCodekitTool(root, "remove_function", { path: "pkg/util.py", qualname });

describe("remove_function on a hand-made repository", () => {
  it("removes a function nothing references, and the file still parses", async () => {
    const result = await remove("unused");
    expect(result).toEqual({
      isError: false,
      text: "Removed unused (lines 10-11) from pkg/util.py; no references remained.",
    });
    expect(read(root, "pkg/util.py")).toBe(
      SMALL_REPO["pkg/util.py"]!.replace("def unused():\n    return os.getcwd()\n\n\n", ""),
    );
  });

  it("refuses while references remain, listing them, and deletes nothing", async () => {
    const result = await remove("helper");
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Refused: 7 reference(s) to helper remain");
    expect(result.text).toContain("app.py:8 attribute: b = pkg.util.helper(3)");
    const method = await remove("Box.size");
    expect(method.text).toContain("other.py:5 attribute: return Box().size()");
    const property = await remove("Box.value#1");
    expect(property.text).toContain("pkg/util.py:19 use: @value.setter");
    expect(read(root, "pkg/util.py")).toBe(SMALL_REPO["pkg/util.py"]);
  });

  it("ignores a function's own recursive calls and refuses to empty a class", async () => {
    const repo = makeRepo({
      "m.py":
        "def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\n\n\nclass C:\n    def only(self):\n        pass\n",
    });
    const recursive = await runCodekitTool(repo, "remove_function", { path: "m.py", qualname: "fact" });
    expect(recursive.isError).toBe(false);
    expect(read(repo, "m.py")).toBe("class C:\n    def only(self):\n        pass\n");
    const only = await runCodekitTool(repo, "remove_function", { path: "m.py", qualname: "C.only" });
    expect(only.text).toContain("would leave an empty class body");
    fs.rmSync(repo, { recursive: true, force: true });
  });
});
