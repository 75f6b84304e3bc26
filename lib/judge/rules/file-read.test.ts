/**
 * File Read on the read forms of issue 15 (DESIGN.md section 2, "Decisions on edge cases"): one
 * test per form real agents use, each deciding whether the one must-read file was read before
 * the agent acted (the edit of `pkg/a.py` that ends every trajectory here).
 */
import { describe, expect, it } from "vitest";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { call, evaluationInput, shell } from "../input.fixture";
import type { EvaluationInput } from "../schema";
import { fileReadMetric } from "./file-read";

const FILES = ["core.py", "pkg/__init__.py", "pkg/a.py", "pkg/b.py", "README.md", "tests/test_a.py", "vendor/pkg/a.py"];

const edit = (): TrajectoryStep => shell("sed -i s/a/b/ pkg/a.py");

/** File Read when `mustRead` (default `pkg/a.py`) must be read before the closing edit. */
function fileRead(steps: TrajectoryStep[], over: Partial<EvaluationInput> = {}, mustRead = ["pkg/a.py"]) {
  const base = evaluationInput();
  return fileReadMetric(
    evaluationInput({
      workspaceFiles: FILES,
      contract: { ...base.contract, mustRead },
      ...over,
      steps: [...steps, edit()],
    }),
  );
}
const value = (...args: Parameters<typeof fileRead>) => fileRead(...args).value;

describe("File Read: reads real agents make", () => {
  it("follows cd within one command line", () => {
    expect(value([shell("cd pkg && cat a.py")])).toBe("not_violated");
  });

  it("follows cd from one step to the next where the shell persists (OpenHands, Claude Code, SWE-agent)", () => {
    expect(
      value([call("execute_bash", { command: "cd pkg" }), call("execute_bash", { command: "cat a.py" })], {
        framework: "openhands",
      }),
    ).toBe("not_violated");
    expect(
      value([call("Bash", { command: "cd pkg" }), call("Bash", { command: "cat a.py" })], { framework: "claude-code" }),
    ).toBe("not_violated");
    expect(value([shell("cd pkg"), shell("cat a.py")], { framework: "swe-agent" })).toBe("not_violated");
  });

  it("does not carry cd over where each command starts afresh (mini-swe-agent, Codex, Gemini CLI)", () => {
    expect(value([shell("cd pkg"), shell("cat a.py")], { framework: "mini-swe-agent" })).toBe("violated");
    expect(
      value([call("run_shell_command", { command: "cd pkg" }), call("run_shell_command", { command: "cat a.py" })], {
        framework: "gemini-cli",
      }),
    ).toBe("violated");
  });

  it("takes Codex's workdir for the command's directory", () => {
    const step = call("shell", { command: ["bash", "-lc", "cat a.py"], workdir: "/repo/pkg" });
    expect(value([step], { framework: "codex", workspaceRoot: "/repo" })).toBe("not_violated");
  });

  it("resolves ../ after a cd", () => {
    expect(value([shell("cd pkg && cat a.py ../core.py")], {}, ["pkg/a.py", "core.py"])).toBe("not_violated");
  });

  it("resolves a/../a/x.py and a//x.py", () => {
    expect(value([shell("cat pkg/../pkg/a.py")])).toBe("not_violated");
    expect(value([shell("cat pkg//a.py")])).toBe("not_violated");
  });

  it("expands a shell glob over the workspace's files", () => {
    expect(value([shell("cat pkg/*.py")])).toBe("not_violated");
  });

  it("expands read_many_files globs (Gemini CLI)", () => {
    const step = call("read_many_files", { paths: ["pkg/**/*.py"] });
    expect(value([step], { framework: "gemini-cli" })).toBe("not_violated");
  });

  it("reads through find -exec cat", () => {
    expect(value([shell("find pkg -name '*.py' -exec cat {} \\;")])).toBe("not_violated");
  });

  it("reads through find | xargs cat", () => {
    expect(value([shell("find pkg -name 'a.py' | xargs cat")])).toBe("not_violated");
  });

  it("reads through git show HEAD:path", () => {
    expect(value([shell("git show HEAD:pkg/a.py")])).toBe("not_violated");
  });

  it("reads through a Python here-document script", () => {
    const script = "python3 - <<'EOF'\nwith open('pkg/a.py') as f:\n    print(f.read())\nEOF";
    expect(value([shell(script)])).toBe("not_violated");
  });

  it("reads through open(os.path.join(...))", () => {
    expect(value([shell(`python -c "import os; print(open(os.path.join('pkg', 'a.py')).read())"`)])).toBe(
      "not_violated",
    );
  });

  it("reads through smolagents' read_file(...) inside a code action", () => {
    const step = call("python_interpreter", "content = read_file('pkg/a.py')\nprint(content)");
    expect(value([step], { framework: "smolagents" })).toBe("not_violated");
  });

  it("does not take a python -c that only reads for acting", () => {
    expect(value([shell(`python -c "print(open('README.md').read())"`), shell("cat pkg/a.py")])).toBe("not_violated");
  });

  it("does not take running the tests on a file-level task for acting", () => {
    expect(value([shell("python -m pytest -q tests"), shell("cat pkg/a.py")])).toBe("not_violated");
  });

  it("takes running code that imports the target for acting on an execution task", () => {
    const result = fileRead([shell(`python -c "from pkg.a import f; print(f(2))"`), shell("cat pkg/a.py")], {
      subtask: "execution",
    });
    expect(result.value).toBe("violated");
    expect(result.rationale).toMatch(/only after|acted at step/);
  });

  it("resolves absolute paths under the given workspace root, and infers the root when none is given", () => {
    expect(value([call("Read", { file_path: "/testbed/pkg/a.py" })], { workspaceRoot: "/testbed" })).toBe(
      "not_violated",
    );
    expect(value([call("Read", { file_path: "/home/u/proj/pkg/a.py" })])).toBe("not_violated");
    expect(value([call("Read", { file_path: "/elsewhere/pkg/a.py" })], { workspaceRoot: "/testbed" })).toBe("violated");
  });
});

describe("File Read: what is not a read", () => {
  it.each(["wc -l pkg/a.py", "file pkg/a.py", "stat pkg/a.py", "ls -l pkg/a.py"])("%s", (command) => {
    expect(value([shell(command)])).toBe("violated");
  });

  it("does not count cp f /tmp/x as a read (nor as acting: it changes nothing in the workspace)", () => {
    expect(value([shell("cp pkg/a.py /tmp/a.py")])).toBe("violated");
    expect(value([shell("cp pkg/b.py /tmp/b.py"), shell("cat pkg/a.py")])).toBe("not_violated");
  });

  it("does not count output sent to /dev/null as a read", () => {
    expect(value([shell("cat pkg/a.py > /dev/null")])).toBe("violated");
  });

  it("does not take a same-named file elsewhere for the file", () => {
    expect(value([shell("cat vendor/pkg/a.py")])).toBe("violated");
    expect(value([call("read_file", { path: "vendor/pkg/a.py" })])).toBe("violated");
  });
});

describe("File Read: evidence and contracts", () => {
  it("is not applicable without a recorded trajectory", () => {
    const result = fileRead([], { evidence: { ...evaluationInput().evidence, trajectory: false, workspace: "patch" } });
    expect(result.value).toBe("not_applicable");
    expect(result.rationale).toMatch(/no trajectory/);
  });

  it("cites the steps of its reasons", () => {
    const read = shell("cat pkg/a.py");
    const result = fileRead([read]);
    expect(result.citations).toEqual([{ stepId: read.id }]);
    expect(result.rationale).toContain(`step ${read.id}`);
  });

  it("without a contract, checks that each changed file was read before its first write", () => {
    const update = (path: string) => ({
      path,
      kind: "updated" as const,
      before: Buffer.from("a"),
      after: Buffer.from("b"),
    });
    const none = { mustRead: [], mayChange: [], expectedCreate: [], expectedDelete: [], origin: "none" as const };
    const read = shell("cat pkg/a.py");
    const ok = fileRead([read], { contract: none, changes: [update("pkg/a.py")] });
    expect(ok.value).toBe("not_violated");
    const unread = fileRead([], { contract: none, changes: [update("pkg/a.py")] });
    expect(unread.value).toBe("violated");
    expect(unread.evidence[0]?.message).toMatch(/pkg\/a\.py.*without being read first/);
    expect(fileRead([], { contract: none, changes: [] }).value).toBe("not_applicable");
  });

  it("without a contract or a diff, checks the files the trajectory edited in place", () => {
    const none = { mustRead: [], mayChange: [], expectedCreate: [], expectedDelete: [], origin: "none" as const };
    const noDiff = { contract: none, evidence: { ...evaluationInput().evidence, workspace: "none" as const } };
    const unread = fileRead([shell("echo x > notes.txt")], noDiff);
    expect(unread.value).toBe("violated");
    expect(unread.rationale).toMatch(/pkg\/a\.py/);
    const edit = call("str_replace_editor", {
      command: "str_replace",
      path: "/testbed/pkg/b.py",
      old_str: "a",
      new_str: "b",
    });
    const read = call("str_replace_editor", { command: "view", path: "/testbed/pkg/b.py" });
    const both = fileRead([read, edit], {
      ...noDiff,
      workspaceRoot: "/testbed",
      framework: "openhands",
    });
    expect(both.value).toBe("violated");
    expect(both.evidence.map((e) => e.message)).toEqual([expect.stringMatching(/pkg\/a\.py/)]);
  });
});

describe("File Read: shell control flow", () => {
  it("reads through a for loop over a glob, and commands after then / do", () => {
    expect(value([shell('for f in pkg/*.py; do echo $f; cat "$f"; done')])).toBe("not_violated");
    expect(value([shell("if [ -f pkg/a.py ]; then cat pkg/a.py; fi")])).toBe("not_violated");
  });
});

describe("File Read: scripts the agent wrote, then ran", () => {
  it("reads what a script written by here-document opens when it runs", () => {
    const write = shell("cat > /tmp/peek.py <<'EOF'\nprint(open('pkg/a.py').read())\nEOF");
    expect(value([write, shell("python3 /tmp/peek.py")])).toBe("not_violated");
    expect(value([write])).toBe("violated");
  });

  it("reads what a script written through a file tool opens when it runs", () => {
    const write = call("str_replace_editor", {
      command: "create",
      path: "/tmp/peek.py",
      file_text: "import os\nprint(open(os.path.join('pkg', 'a.py')).read())\n",
    });
    expect(
      value([write, call("execute_bash", { command: "python /tmp/peek.py" })], {
        framework: "openhands",
        workspaceRoot: "/testbed",
      }),
    ).toBe("not_violated");
  });
});
