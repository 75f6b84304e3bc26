import { describe, expect, it } from "vitest";
import {
  VIRTUAL_ROOT,
  absolutePathsIn,
  expandGlob,
  globToRegExp,
  inferWorkspaceRoot,
  relativeToRoot,
  resolvePath,
} from "./workspace-paths";

const FILES = ["pkg/__init__.py", "pkg/a.py", "pkg/sub/c.py", "README.md", "vendor/pkg/a.py"];

describe("resolvePath and relativeToRoot", () => {
  it("resolves ., .., // against the current directory", () => {
    expect(resolvePath("/ws/pkg", "../core.py")).toBe("/ws/core.py");
    expect(resolvePath("/ws", "pkg/../pkg/a.py")).toBe("/ws/pkg/a.py");
    expect(resolvePath("/ws", "./pkg//a.py")).toBe("/ws/pkg/a.py");
    expect(resolvePath("/ws", "/etc/passwd")).toBe("/etc/passwd");
  });
  it("keeps the home folder and variables outside the workspace", () => {
    expect(resolvePath("/ws", "~/.bashrc")).toBe("~/.bashrc");
    expect(resolvePath("/ws", "$HOME/.netrc")).toBe("~/.netrc");
    expect(resolvePath("/ws", "$TMPDIR/x")).toBeNull();
  });
  it("is relative only under the root", () => {
    expect(relativeToRoot("/ws/pkg/a.py", "/ws")).toBe("pkg/a.py");
    expect(relativeToRoot("/ws", "/ws")).toBe("");
    expect(relativeToRoot("/wsx/a.py", "/ws")).toBeNull();
    expect(relativeToRoot(`${VIRTUAL_ROOT}/a.py`, VIRTUAL_ROOT)).toBe("a.py");
  });
});

describe("globs", () => {
  it("match like the shell, ** at any depth", () => {
    expect(expandGlob("pkg/*.py", FILES)).toEqual(["pkg/__init__.py", "pkg/a.py"]);
    expect(expandGlob("pkg/**/*.py", FILES)).toEqual(["pkg/__init__.py", "pkg/a.py", "pkg/sub/c.py"]);
    expect(expandGlob("**/a.py", FILES)).toEqual(["pkg/a.py", "vendor/pkg/a.py"]);
    expect(expandGlob("./pkg/?.py", FILES)).toEqual(["pkg/a.py"]);
    expect(expandGlob("{README.md,pkg/a.py}", FILES)).toEqual(["pkg/a.py", "README.md"]);
    expect(globToRegExp("pkg/[ab].py").test("pkg/a.py")).toBe(true);
  });
});

describe("inferWorkspaceRoot", () => {
  it("takes the prefix most absolute paths put a workspace file under", () => {
    expect(inferWorkspaceRoot(["/home/u/proj/pkg/a.py", "/home/u/proj/README.md"], FILES)).toBe("/home/u/proj");
  });
  it("prefers the shortest prefix on a tie, ignores interpreters' own files", () => {
    expect(inferWorkspaceRoot(["/r/vendor/pkg/a.py"], FILES)).toBe("/r");
    expect(inferWorkspaceRoot(["/usr/lib/python3/site-packages/pkg/a.py"], FILES)).toBeNull();
  });
  it("falls back on a well-known sandbox folder the agent used", () => {
    expect(inferWorkspaceRoot(["/testbed"], FILES)).toBe("/testbed");
    expect(inferWorkspaceRoot(["/opt/x"], FILES)).toBeNull();
  });
  it("finds absolute paths in commands and arguments", () => {
    expect(absolutePathsIn(`cd /testbed && cat "/testbed/pkg/a.py"; x={"file_path":"/w/a.py"}`)).toEqual([
      "/testbed",
      "/testbed/pkg/a.py",
      "/w/a.py",
    ]);
  });
});
