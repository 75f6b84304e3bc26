import { describe, expect, it } from "vitest";
import { DEFAULT_IGNORED, isIgnoredPath } from "@/lib/benchmark/repository";
import { IGNORED_PATTERNS, isIgnoredWorkspacePath } from "./ignored-paths";

describe("isIgnoredWorkspacePath", () => {
  it("has the benchmark's list of ignored paths", () => {
    expect([...IGNORED_PATTERNS]).toEqual(DEFAULT_IGNORED);
  });

  it("decides like the benchmark's isIgnoredPath", () => {
    const samples = [
      "pkg/__pycache__/a.cpython-312.pyc",
      ".pytest_cache/v/cache/nodeids",
      "pkg/a.py",
      "pkg/a.pyc",
      "dist/pkg.egg-info/PKG-INFO",
      ".coverage",
      "notes/.git/config",
      "README.md",
      "src/.venv/bin/python",
      "node_modules",
    ];
    for (const path of samples) expect(isIgnoredWorkspacePath(path), path).toBe(isIgnoredPath(path));
  });
});
