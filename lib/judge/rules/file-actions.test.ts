import { describe, expect, it } from "vitest";
import { sameFile, shellActions, stepActions, trajectoryActions } from "./file-actions";
import { patchFiles } from "./patch-files";
import { pythonOpens } from "./python-effects";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { call, shell } from "../input.fixture";

const kinds = (actions: { kind: string; path: string | null }[]) => actions.map((a) => `${a.kind}:${a.path}`);

describe("shellActions", () => {
  it.each([
    ["cat pkg/a.py", ["read:pkg/a.py"]],
    ["head -n 20 pkg/a.py", ["read:pkg/a.py"]],
    ["sed -n '1,40p' pkg/a.py", ["read:pkg/a.py"]],
    ["less pkg/a.py", ["read:pkg/a.py"]],
    ["grep -n 'def f' pkg/a.py", ["read:pkg/a.py"]],
    ["cat a.py | grep x && tail b.py", ["read:a.py", "read:b.py"]],
    ["sed -i 's/a/b/' pkg/a.py", ["write:pkg/a.py"]],
    ["echo hi > notes.txt", ["write:notes.txt"]],
    ["python x.py 2>/dev/null >> log.txt", ["write:log.txt", "run:x.py"]],
    ["rm -f pkg/old.py", ["delete:pkg/old.py"]],
    ["mv a.py b.py", ["delete:a.py", "write:b.py"]],
    ["python -c \"print(open('pkg/a.py').read())\"", ["read:pkg/a.py", "run:null"]],
    ["PYTHONPATH=src timeout 60 python3 -m pytest tests/test_a.py", ["run:tests/test_a.py"]],
    ["env X=1 cat pkg/a.py", ["read:pkg/a.py"]],
  ])("%s", (command, expected) => {
    expect(kinds(shellActions("s", command))).toEqual(expected);
  });

  it("does not take sed scripts or flags for paths", () => {
    expect(kinds(shellActions("s", "sed -n 10,20p"))).toEqual([]);
  });
});

describe("stepActions", () => {
  it("reads through file tools of every agent family", () => {
    expect(kinds(stepActions(call("read_file", { path: "a.py" })))).toEqual(["read:a.py"]);
    expect(kinds(stepActions(call("Read", { file_path: "/ws/a.py" })))).toEqual(["read:/ws/a.py"]);
    expect(kinds(stepActions(call("str_replace_editor", { command: "view", path: "a.py" })))).toEqual(["read:a.py"]);
    expect(kinds(stepActions(call("str_replace_editor", { command: "str_replace", path: "a.py" })))).toEqual([
      "write:a.py",
    ]);
    expect(kinds(stepActions(call("read_many_files", { paths: ["a.py", "b.py"] })))).toEqual([
      "read:a.py",
      "read:b.py",
    ]);
    expect(kinds(stepActions(call("Bash", { command: "cat a.py" })))).toEqual(["read:a.py"]);
    expect(kinds(stepActions(call("exec_command", { cmd: ["bash", "-lc", "cat a.py"] })))).toEqual(["read:a.py"]);
    expect(kinds(stepActions(call("run_python", { code: "open('a.py', 'w').write('x')" })))).toEqual([
      "write:a.py",
      "run:null",
    ]);
    expect(kinds(stepActions(call("write_file", '{"path": "b.py"}')))).toEqual(["write:b.py"]);
  });
});

describe("pythonOpens and sameFile", () => {
  it("finds reads and writes of open() and pathlib", () => {
    expect(pythonOpens("open('a.py'); open(\"b.txt\", 'w'); Path('c.py').read_text()")).toEqual([
      { path: "a.py", write: false },
      { path: "b.txt", write: true },
      { path: "c.py", write: false },
    ]);
  });
  it("matches relative and ./ spellings of a workspace path exactly, never by suffix", () => {
    expect(sameFile("pkg/a.py", "pkg/a.py")).toBe(true);
    expect(sameFile("./pkg/a.py", "pkg/a.py")).toBe(true);
    expect(sameFile("/tmp/ws/pkg/a.py", "pkg/a.py")).toBe(false);
    expect(sameFile("vendor/pkg/a.py", "pkg/a.py")).toBe(false);
    expect(sameFile("pkg/aa.py", "pkg/a.py")).toBe(false);
  });
});

describe("trajectoryActions", () => {
  const FILES = ["pkg/a.py", "pkg/b.py", "README.md"];
  const files = (steps: Parameters<typeof trajectoryActions>[0], framework: string | null = null) =>
    trajectoryActions(steps, { framework, workspaceRoot: "/ws", workspaceFiles: FILES }).map(
      (a) => `${a.kind}:${a.file}`,
    );

  it("follows SWE-agent's open file through goto and edit", () => {
    expect(files([shell("open pkg/a.py 20"), shell("goto 40"), shell("edit 10:12")], "swe-agent")).toEqual([
      "read:pkg/a.py",
      "read:pkg/a.py",
      "write:pkg/a.py",
    ]);
  });

  it("reads the files of Codex's apply_patch envelope and unified diffs", () => {
    const envelope =
      "*** Begin Patch\n*** Update File: pkg/a.py\n@@\n-x\n+y\n*** Delete File: pkg/b.py\n*** End Patch\n";
    expect(files([call("apply_patch", { input: envelope })], "codex")).toEqual(["write:pkg/a.py", "delete:pkg/b.py"]);
    expect(files([shell(`apply_patch <<'EOF'\n${envelope}EOF`)], "codex")).toEqual([
      "write:pkg/a.py",
      "delete:pkg/b.py",
    ]);
    expect(patchFiles("--- a/pkg/a.py\n+++ b/pkg/a.py\n@@ -1 +1 @@\n--- a/x.py\n+++ /dev/null\n")).toEqual([
      { path: "pkg/a.py", kind: "write", inPlace: true },
      { path: "x.py", kind: "delete", inPlace: false },
    ]);
  });

  it("reads what Python code opens through variables, pathlib and subprocess", () => {
    const code = [
      "from pathlib import Path",
      "p = Path('pkg') / 'a.py'",
      "text = p.read_text()",
      "name = os.path.join('pkg', 'b.py')",
      "with open(name, 'w') as f: f.write(text)",
      "subprocess.run(['cat', 'README.md'])",
    ].join("\n");
    expect(files([call("run_python", { code })], "builtin")).toEqual([
      "read:pkg/a.py",
      "write:pkg/b.py",
      "read:README.md",
      "run:null",
    ]);
  });

  it("counts restoring a file and stashing as changes, git status as nothing", () => {
    expect(files([shell("git checkout -- pkg/a.py"), shell("git stash"), shell("git status")])).toEqual([
      "write:pkg/a.py",
      "write:null",
    ]);
  });

  it("does not count reads of commands whose output goes to a file, but counts the file written", () => {
    expect(files([shell("cat pkg/a.py > out.txt"), shell("grep -l x pkg/*.py | xargs cat")])).toEqual([
      "write:out.txt",
      "read:pkg/a.py",
      "read:pkg/b.py",
    ]);
  });
});

describe("a shell tool call and the shell step recorded for it", () => {
  it("are one command: its cd applies once", () => {
    const bash = { ...call("Bash", { command: "cd pkg" }), callId: "c1" } as TrajectoryStep;
    const recorded: TrajectoryStep = {
      id: "r1",
      kind: "shell",
      callId: "c1",
      command: "cd pkg",
      exitCode: 0,
      output: "",
      timedOut: false,
    };
    const actions = trajectoryActions([bash, recorded, shell("cat a.py")], {
      framework: "claude-code",
      workspaceRoot: "/ws",
      workspaceFiles: ["pkg/a.py"],
    });
    expect(actions.map((a) => `${a.kind}:${a.file}`)).toEqual(["read:pkg/a.py"]);
  });
});

describe("SWE-agent's typed edit", () => {
  it("takes the lines up to end_of_edit for text, not for commands", () => {
    const typed = shell("edit 10:12\n    rm = cat(x)\n    return rm\nend_of_edit");
    const actions = trajectoryActions([shell("open pkg/a.py"), typed], {
      framework: "swe-agent",
      workspaceRoot: "/ws",
      workspaceFiles: ["pkg/a.py"],
    });
    expect(actions.map((a) => `${a.kind}:${a.file}`)).toEqual(["read:pkg/a.py", "write:pkg/a.py"]);
  });
});
