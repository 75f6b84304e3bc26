import { afterAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import { runCodekitTool } from "../index";
import { makeRepo, SMALL_REPO } from "../repo.fixture";

const root = makeRepo(SMALL_REPO);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("analyze_dependencies on a hand-made repository", () => {
  it("resolves a file's imports to repository files, the standard library or third-party packages", async () => {
    const result = await runCodekitTool(root, "analyze_dependencies", { path: "pkg/util.py" });
    expect(result.text).toBe(
      [
        "Imports of pkg/util.py:",
        "  line 1: import os -> standard library",
        "  line 2: from .base import Base -> pkg/base.py",
        "Files to read before editing: pkg/util.py, pkg/base.py",
      ].join("\n"),
    );
  });

  it("lists what one function uses, through imports and chains, and from its own file", async () => {
    const main = await runCodekitTool(root, "analyze_dependencies", { path: "app.py", function: "main" });
    expect(main.text).toContain("helper -> pkg/__init__.py (imported at line 2)");
    expect(main.text).toContain("pkg.util.helper -> pkg/util.py (imported at line 1)");
    expect(main.text).toContain("u.helper -> pkg/util.py (imported at line 3)");
    expect(main.text).not.toContain("main ->");
    expect(main.text).toContain("Files to read before editing: app.py, pkg/__init__.py, pkg/util.py");
    const size = await runCodekitTool(root, "analyze_dependencies", { path: "pkg/util.py", function: "Box.size" });
    expect(size.text).toContain("helper -> pkg/util.py:5 (same file)");
  });
});
