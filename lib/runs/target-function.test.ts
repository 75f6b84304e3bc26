import { describe, expect, it } from "vitest";
import type { GroundTruth } from "@/lib/benchmark/schema";
import { evaluationInput } from "@/lib/judge/input.fixture";
import { instructionFollowingMetric } from "@/lib/judge/rules/instruction-following";
import { compareTarget, dedentBlock, extractFunction, groundTruthFunction, type TargetInput } from "./target-function";

const gt: GroundTruth = {
  originalFile: "pkg/shapes.py",
  targetQualifiedName: "Circle.area",
  signature: "    def area(self) -> float:",
  docstring: '        """Return the area."""',
  body: "        return math.pi * self.r ** 2",
  dependencies: { intraClass: [], intraFile: [], crossFile: [] },
  destinationFile: null,
  tests: [],
};

const fileAfter = [
  "import math",
  "",
  "class Circle:",
  "    def __init__(self, r):",
  "        self.r = r",
  "",
  "    @property",
  "    def area(self) -> float:",
  '        """Return the area."""',
  "        return 3.14 * self.r * self.r",
  "",
  "    def perimeter(self):",
  "        return 2 * math.pi * self.r",
  "",
].join("\n");

const input = (over: Partial<TargetInput>): TargetInput => ({
  subtask: "codegen_file",
  groundTruth: gt,
  fileAfter: undefined,
  fileSetup: null,
  finalAnswer: null,
  ...over,
});

describe("ground truth vs agent", () => {
  it("builds the ground-truth function from signature, given docstring and body, dedented", async () => {
    expect(groundTruthFunction(gt)).toBe(
      'def area(self) -> float:\n    """Return the area."""\n    return math.pi * self.r ** 2',
    );
    // A docstring that is not a string literal (a bare sentence) is left out.
    expect(groundTruthFunction({ ...gt, docstring: "Return the area." })).toBe(
      "def area(self) -> float:\n    return math.pi * self.r ** 2",
    );
  });

  it("extracts a method by its qualified name, with or without its decorators", async () => {
    expect(await extractFunction(fileAfter, "Circle.area", false)).toBe(
      'def area(self) -> float:\n    """Return the area."""\n    return 3.14 * self.r * self.r',
    );
    expect((await extractFunction(fileAfter, "Circle.area", true))?.split("\n")[0]).toBe("@property");
    expect(await extractFunction(fileAfter, "Square.side", false)).toBeNull();
  });

  it("takes the agent's version from the target file after the run", async () => {
    expect(await compareTarget(input({ fileAfter }))).toEqual({
      qualifiedName: "Circle.area",
      file: "pkg/shapes.py",
      groundTruth: groundTruthFunction(gt),
      agent: 'def area(self) -> float:\n    """Return the area."""\n    return 3.14 * self.r * self.r',
      source: "file",
      problem: null,
    });
  });

  it("falls back to the file as set up when the run left it unchanged, and says when it is gone", async () => {
    const unchanged = await compareTarget(input({ fileSetup: fileAfter }));
    expect(unchanged).toMatchObject({ source: "unchanged_file", problem: null });
    expect(await compareTarget(input({}))).toMatchObject({
      agent: null,
      problem: expect.stringContaining("not available"),
    });
    expect(await compareTarget(input({ fileAfter: null }))).toMatchObject({
      agent: null,
      problem: "the agent deleted pkg/shapes.py",
    });
    expect(await compareTarget(input({ fileAfter: "x = 1\n" }))).toMatchObject({
      agent: null,
      problem: "`Circle.area` is not defined in pkg/shapes.py after the run",
    });
  });

  it("reads the function-level answer from the final message's code block", async () => {
    const finalAnswer = "Here it is:\n```python\ndef area(self) -> float:\n    return math.pi * self.r ** 2\n```\n";
    expect(await compareTarget(input({ subtask: "codegen_function", finalAnswer }))).toMatchObject({
      source: "answer",
      agent: "def area(self) -> float:\n    return math.pi * self.r ** 2",
      problem: null,
    });
    expect(await compareTarget(input({ subtask: "codegen_function", finalAnswer: "Done." }))).toMatchObject({
      agent: null,
      problem: "the final answer has no definition of `area`",
    });
    expect(await compareTarget(input({ subtask: "codegen_function" }))).toMatchObject({
      problem: "the agent gave no final answer",
    });
  });

  it("has nothing to compare outside code generation or without a target", async () => {
    expect(await compareTarget(input({ subtask: "delete_file", fileAfter }))).toBeNull();
    expect(await compareTarget(input({ groundTruth: { ...gt, targetQualifiedName: null } }))).toBeNull();
  });

  it("dedents by the smallest indentation, tabs counted to eight", async () => {
    expect(dedentBlock("    a\n\n      b\n")).toBe("a\n\n  b");
    expect(dedentBlock("\tx\n        y")).toBe("x\ny");
  });
});

describe("the run page and the Instruction Following judge", () => {
  // The page used to find the target with a line scanner that also listed functions nested in
  // functions: for a file whose only `helper` is inside `outer`, it showed `outer.helper` as the
  // agent's implementation while the judge said the file has no function `helper`.
  const nested = "def outer():\n    def helper():\n        return 1\n    return helper()\n";
  const groundTruth: GroundTruth = {
    ...gt,
    originalFile: "pkg/a.py",
    targetQualifiedName: "helper",
    signature: "def helper():",
    body: "    return 1",
  };
  const change = (after: string) => ({
    path: "pkg/a.py",
    kind: "updated" as const,
    before: null,
    after: Buffer.from(after),
  });

  it.each([
    ["a function nested in another", nested, null, "violated", "`pkg/a.py` has no function `helper`"],
    [
      "a decorated function after a def inside a string",
      's = """\ndef helper():\n"""\n\n@cache\ndef helper():\n    return 2\n',
      "def helper():\n    return 2",
      "not_violated",
      "`helper` is implemented in `pkg/a.py` and the file parses",
    ],
    // The page still shows a function with a syntax error; the judge says the file does not parse.
    [
      "a def missing its colon",
      "def helper()\n    return 1\n",
      "def helper()\n    return 1",
      "violated",
      "`pkg/a.py` does not parse",
    ],
  ])("agree on %s", async (_label, after, agent, value, rationale) => {
    const page = await compareTarget(input({ groundTruth, fileAfter: after }));
    const judged = await instructionFollowingMetric(evaluationInput({ groundTruth, changes: [change(after)] }));
    expect(page?.agent ?? null).toBe(agent);
    expect([judged.value, judged.rationale]).toEqual([value, rationale]);
  });

  it.each([
    // The judge used to match /def\s+helper\s*\(/ anywhere in the answer, prose included.
    [
      "a def mentioned in prose",
      "Call `def helper():` from the loop.",
      null,
      "violated",
      "the answer does not define `helper`",
    ],
    [
      "a function in a code block",
      "```python\ndef helper():\n    return 1\n```",
      "def helper():\n    return 1",
      "not_violated",
      "the answer defines `helper` (its file is not available to check more)",
    ],
  ])("agree on a function-level answer without its file: %s", async (_label, finalAnswer, agent, value, rationale) => {
    const page = await compareTarget(input({ subtask: "codegen_function", groundTruth, finalAnswer }));
    const judged = await instructionFollowingMetric(
      evaluationInput({ subtask: "codegen_function", groundTruth, finalAnswer }),
    );
    expect(page?.agent ?? null).toBe(agent);
    expect([judged.value, judged.rationale]).toEqual([value, rationale]);
  });
});
