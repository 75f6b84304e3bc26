import { describe, expect, it } from "vitest";
import type { CommandResult } from "@/lib/agents/sandbox";
import { GroundTruthSchema } from "@/lib/benchmark/schema";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { planTaskCheck } from "./checks";
import { missingModules, outputTail, pytestVerdict } from "./python-outcome";
import { checkTask } from "./run-check";
import type { RebuiltWorkspace, TaskCheckInput } from "./schema";

const ws = (files: Record<string, string | null>): RebuiltWorkspace =>
  new Map(
    Object.entries(files).map(([p, text]) => [p, text === null ? null : { data: Buffer.from(text), mode: 0o100644 }]),
  );

function input(over: Partial<TaskCheckInput> & { subtask: TaskCheckInput["instance"]["subtask"] }): TaskCheckInput {
  const { subtask, ...rest } = over;
  return {
    runId: "r1",
    instance: {
      id: `t/${subtask}/x`,
      subtask,
      contract: { mustRead: [], mayChange: [], expectedCreate: [], expectedDelete: ["pkg/b.py"] },
      groundTruth: GroundTruthSchema.parse({}),
    },
    framework: "builtin",
    steps: [],
    finalAnswer: null,
    before: ws({ "pkg/__init__.py": "", "pkg/a.py": "", "pkg/b.py": "" }),
    after: ws({ "pkg/__init__.py": "", "pkg/a.py": "" }),
    ...rest,
  };
}

const shell = (id: string, command: string, output: string, exitCode = 0): TrajectoryStep => ({
  id,
  kind: "shell",
  command,
  exitCode,
  output,
  timedOut: false,
});

const result = (exitCode: number, output: string): CommandResult => ({
  exitCode,
  output,
  timedOut: false,
  outputTruncated: false,
  limitHit: null,
  peakRssBytes: null,
  durationMs: 1,
});

describe("task checks decided without running anything", () => {
  it("delete file: exactly the named file gone; another deletion or the file left is not completed", async () => {
    expect(await planTaskCheck(input({ subtask: "delete_file" }))).toMatchObject({ outcome: "completed" });
    const extra = input({ subtask: "delete_file", after: ws({ "pkg/__init__.py": "" }) });
    expect(await planTaskCheck(extra)).toMatchObject({
      outcome: "not_completed",
      reason: expect.stringMatching(/pkg\/a\.py/),
    });
    const left = input({
      subtask: "delete_file",
      after: ws({ "pkg/__init__.py": "", "pkg/a.py": "", "pkg/b.py": "" }),
    });
    expect(await planTaskCheck(left)).toMatchObject({ outcome: "not_completed", reason: "pkg/b.py is still there" });
  });

  it("a run recorded without its workspace is not checkable, saying so", async () => {
    const plan = await planTaskCheck(
      input({ subtask: "delete_file", after: "the run was recorded without its full workspace" }),
    );
    expect(plan).toMatchObject({ outcome: "not_checkable", reason: "the run was recorded without its full workspace" });
  });

  it("execution: the target called, its output in the final answer", async () => {
    const gt = GroundTruthSchema.parse({ targetQualifiedName: "mod.area", originalFile: "mod.py" });
    const base = input({ subtask: "execution" });
    const run = (steps: TrajectoryStep[], finalAnswer: string) =>
      planTaskCheck({ ...base, instance: { ...base.instance, groundTruth: gt }, steps, finalAnswer });
    expect(
      await run([shell("s1", "python3 -c 'from mod import area; print(area(2))'", "4\n")], "It returns 4."),
    ).toMatchObject({ outcome: "completed" });
    expect(await run([shell("s1", "python3 -c 'import mod; print(mod)'", "<module>")], "Done.")).toMatchObject({
      outcome: "not_completed",
      reason: "no command called `area`",
    });
    expect(await run([shell("s1", "python3 -c 'print(area(2))'", "4\n")], "Done.")).toMatchObject({
      outcome: "not_completed",
    });
  });

  it("testing: a passing test run that exercises the target", async () => {
    const gt = GroundTruthSchema.parse({ targetQualifiedName: "mod.area", tests: ["tests/test_mod.py::test_area"] });
    const base = input({ subtask: "testing" });
    const run = (steps: TrajectoryStep[]) =>
      planTaskCheck({ ...base, instance: { ...base.instance, groundTruth: gt }, steps });
    expect(await run([shell("s1", "python3 -m pytest -q tests/test_mod.py::test_area", "1 passed")])).toMatchObject({
      outcome: "completed",
    });
    expect(await run([shell("s1", "python3 -m pytest -q tests/test_mod.py::test_area", "1 failed", 1)])).toMatchObject({
      outcome: "not_completed",
    });
    expect(await run([shell("s1", "ls", "")])).toMatchObject({ outcome: "not_completed", reason: "no test was run" });
  });

  it("moves: the function must arrive unchanged and leave the source", async () => {
    const source = "import math\n\n\ndef area(r):\n    return math.pi * r * r\n";
    const gt = GroundTruthSchema.parse({
      targetQualifiedName: "geo.area",
      originalFile: "geo.py",
      destinationFile: "shapes.py",
    });
    const base = input({ subtask: "add_new_file" });
    const run = (after: Record<string, string>) =>
      planTaskCheck({
        ...base,
        instance: { ...base.instance, groundTruth: gt },
        before: ws({ "geo.py": source }),
        after: ws(after),
      });
    const moved = "import math\n\n\ndef area(r):\n    return math.pi * r * r\n";
    expect(await run({ "geo.py": "from shapes import area\n", "shapes.py": moved })).toMatchObject({
      outcome: "completed",
    });
    expect(await run({ "geo.py": source, "shapes.py": moved })).toMatchObject({
      outcome: "not_completed",
      reason: "`area` is still defined in geo.py",
    });
    const changed = moved.replace("r * r", "r ** 2");
    expect(await run({ "geo.py": "", "shapes.py": changed })).toMatchObject({
      outcome: "not_completed",
      reason: expect.stringMatching(/changed on the way/),
    });
  });
});

describe("reading pytest's result", () => {
  it("names a missing third-party module, and tells the repository's own modules apart", () => {
    const output = "E   ModuleNotFoundError: No module named 'rwlock'\n1 error in 0.1s\n";
    expect(missingModules(output)).toEqual(["rwlock"]);
    expect(pytestVerdict(result(2, output), ["t.py::a"], new Set(["pkg"]), 1000)).toEqual({
      outcome: "not_checkable",
      reason: "missing third-party module rwlock",
    });
    const own = "E   ModuleNotFoundError: No module named 'pkg.gone'\n";
    expect(pytestVerdict(result(2, own), ["t.py::a"], new Set(["pkg"]), 1000)).toMatchObject({
      outcome: "not_completed",
    });
  });

  it("keeps the tail of a long output", () => {
    const tail = outputTail(`${"x".repeat(100)}\n${"y".repeat(50)}\n`, 60);
    expect(tail).toMatch(/^\[… first \d+ bytes cut\]\ny{50}\n$/);
  });
});

describe("a check run in the sandbox", { timeout: 60_000 }, () => {
  it("runs the sample's tests on a copy of the final workspace", async () => {
    const gt = GroundTruthSchema.parse({
      targetQualifiedName: "mod.double",
      originalFile: "mod.py",
      tests: ["tests/test_mod.py::test_double"],
    });
    const files = (body: string) =>
      ws({
        "mod.py": `def double(x):\n    return ${body}\n`,
        "tests/test_mod.py": "from mod import double\n\n\ndef test_double():\n    assert double(2) == 4\n",
      });
    const base = input({ subtask: "codegen_file" });
    const check = (body: string) =>
      checkTask(
        { ...base, instance: { ...base.instance, groundTruth: gt }, before: files("x"), after: files(body) },
        { python: "python3", timeoutMs: 30_000 },
      );
    expect(await check("x * 2")).toMatchObject({ outcome: "completed", output: expect.stringMatching(/1 passed/) });
    expect(await check("x + 1")).toMatchObject({ outcome: "not_completed", output: expect.stringMatching(/1 failed/) });
  });
});
