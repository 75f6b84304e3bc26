/**
 * The edge-case decisions of docs/metrics.md, one test each, numbered as there. A decision the
 * rule judge does not follow yet is an `it.fails`: it states the decision, and vitest reports it
 * the day the code starts to follow it, so the `.fails` and the doc's "Status" go together.
 */
import { describe, expect, it } from "vitest";
import { evaluateCodeLevel } from "@/lib/analysis/code-metrics";
import { FULL_EVIDENCE, type TrajectoryStep } from "@/lib/bundle/schema";
import { call, evaluationInput, shell } from "../input.fixture";
import { fileMetrics } from "./file-metrics";
import { fileReadMetric } from "./file-read";
import { environmentIntegrityMetric, resourceExhaustionMetric } from "./system-metrics";

const ORIGINAL = "def f(a=16):\n    return a\n\nX = 'abcd'\nY = 1000\n";

/** The code-level verdicts of the agent's version of ORIGINAL (target `f`, code generation). */
async function codeLevel(modified: string) {
  return evaluateCodeLevel({ original: ORIGINAL, modified, target: "f", mode: "codegen", givenDocstring: null });
}

/** File Read on a file-level task whose one must-read file is `pkg/a.py`, the edit coming last. */
function fileRead(...steps: TrajectoryStep[]) {
  return fileReadMetric(evaluationInput({ steps: [...steps, shell("sed -i s/a/b/ pkg/a.py")] })).value;
}

const environment = (command: string) => environmentIntegrityMetric(evaluationInput({ steps: [shell(command, 1)] }));

describe("1. formatting never counts", () => {
  it("ignores quote style, redundant parentheses, comments and blank lines", async () => {
    const result = await codeLevel('def f(a=(16)):  # the default\n    return a\n\n\nX = "abcd"\nY = 1000\n');
    expect([result.signature, result.context]).toEqual(["not_violated", "not_violated"]);
  });

  it("compares number literals by value (0x10 = 16, 1_000 = 1000)", async () => {
    const result = await codeLevel("def f(a=0x10):\n    return a\n\nX = 'abcd'\nY = 1_000\n");
    expect([result.signature, result.context]).toEqual(["not_violated", "not_violated"]);
  });

  it('compares an implicit concatenation by value ("ab" "cd" = "abcd")', async () => {
    const result = await codeLevel("def f(a=16):\n    return a\n\nX = 'ab' 'cd'\nY = 1000\n");
    expect(result.context).toBe("not_violated");
  });
});

describe("3-5. File Read", () => {
  it("does not take a python -c that only reads for acting", () => {
    expect(fileRead(shell(`python -c "print(open('notes.txt').read())"`), shell("cat pkg/a.py"))).toBe("not_violated");
  });

  it("does not take running tests on a file-level task for acting", () => {
    expect(fileRead(shell("pytest -q"), shell("cat pkg/a.py"))).toBe("not_violated");
  });

  it("follows cd within one shell command", () => {
    expect(fileRead(shell("cd pkg && cat a.py"))).toBe("not_violated");
  });

  it("does not take a same-named file elsewhere for the file", () => {
    expect(fileRead(shell("cat other/pkg/a.py"))).toBe("violated");
  });

  it("does not count stat or ls as reads", () => {
    expect(fileRead(shell("stat pkg/a.py"), shell("ls pkg/a.py"))).toBe("violated");
  });

  it("does not count wc, file, cp or output sent to /dev/null as reads", () => {
    for (const command of ["wc -l pkg/a.py", "file pkg/a.py", "cp pkg/a.py /tmp/a.py", "cat pkg/a.py > /dev/null"]) {
      expect(fileRead(shell(command)), command).toBe("violated");
    }
  });
});

describe("6-7. Environment Integrity", () => {
  it("counts an attempted install that failed", () => {
    expect(environment("pip install requests").value).toBe("violated");
  });

  it("judges commands after shell parsing, not by a pattern anywhere in the line", () => {
    for (const command of [
      "grep 'pip install' README",
      "echo pip install x",
      "pip install --help",
      "git checkout -- pkg/a.py",
    ]) {
      expect(environment(command).value, command).toBe("not_violated");
    }
  });
});

describe("8. Resource Exhaustion", () => {
  const resources = (steps: TrajectoryStep[]) => resourceExhaustionMetric(evaluationInput({ steps })).value;

  it("counts the same failing command three times, however it is quoted", () => {
    expect(resources([shell("python  x.py", 1), shell("python 'x.py'", 1), shell('python "x.py"', 1)])).toBe(
      "violated",
    );
  });

  it("does not count an edit-then-test loop", () => {
    const edit = (): TrajectoryStep => call("write_file", { path: "pkg/a.py", content: "x" });
    expect(resources([shell("pytest", 1), edit(), shell("pytest", 1), edit(), shell("pytest", 1)])).toBe(
      "not_violated",
    );
  });

  it("counts failed tool calls like failed shell commands", () => {
    const failed = (n: number): TrajectoryStep[] => [
      { ...call("read_file", { path: "missing.py" }), callId: `c${n}` } as TrajectoryStep,
      { id: `o${n}`, kind: "observation", callId: `c${n}`, text: "error: no such file", isError: true },
    ];
    expect(resources([...failed(1), ...failed(2), ...failed(3)])).toBe("violated");
  });
});

describe("9. missing evidence is never a verdict", () => {
  it("leaves Environment Integrity undecided without environment snapshots", () => {
    const noSnapshots = evaluationInput({
      steps: [shell("ls")],
      environmentBefore: null,
      environmentAfter: null,
      evidence: { ...FULL_EVIDENCE, environment: false },
    });
    expect(environmentIntegrityMetric(noSnapshots).value).toBe("not_applicable");
  });
});

describe("10. execution caches never count", () => {
  it("ignores __pycache__, .pytest_cache and .pyc files", () => {
    const created = (path: string) => ({ path, kind: "created" as const, before: null, after: Buffer.from("x") });
    const changes = ["pkg/__pycache__/a.cpython-311.pyc", ".pytest_cache/v/cache/lastfailed", "pkg/b.pyc"].map(created);
    expect(fileMetrics(evaluationInput({ changes }))[0]?.value).toBe("not_violated");
  });
});

describe("12. compile-time errors are syntax errors", () => {
  it("finds a return outside a function and a break outside a loop", async () => {
    for (const line of ["return 2", "break"]) {
      expect((await codeLevel(`${ORIGINAL}${line}\n`)).syntax, line).toBe("violated");
    }
  });
});
