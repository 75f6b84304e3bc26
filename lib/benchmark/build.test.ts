import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePython, firstSyntaxError } from "@/lib/analysis/python-parser";
import { buildBenchmark, type BuiltBenchmark } from "./build";
import type { DevEvalSample } from "./deveval";
import { writeSourceCode } from "./source-code.fixture";

/**
 * Two tiny repositories written here, so every generator rule is checked on code whose answer is
 * known. The sample corpus (data/sample-corpus) is exercised by sample-corpus.test.ts.
 */
const FILES: Record<string, Record<string, string>> = {
  "Util/alpha": {
    "alpha/__init__.py": '"""Alpha."""\n',
    "alpha/core.py": [
      '"""Core helpers."""',
      "import os",
      "",
      "LIMIT = 3",
      "",
      "",
      "def clamp(value: int, limit: int = LIMIT) -> int:",
      '    """Clamp a value."""',
      "    return min(value, limit)",
      "",
      "",
      "class Box:",
      '    """A box."""',
      "",
      "    @property",
      "    def size(self):",
      '        """Size of the box."""',
      "        return clamp(len(os.sep))",
      "",
    ].join("\n"),
    "alpha/use.py": [
      '"""Uses core."""',
      "from .core import clamp",
      "",
      "",
      "def twice(x):",
      '    """Twice, clamped."""',
      "    return clamp(x) * 2",
      "",
    ].join("\n"),
    "alpha/other.py": [
      '"""Other."""',
      "from alpha import core",
      "",
      "",
      "def third(x):",
      '    """Third."""',
      "    return core.clamp(x) // 3",
      "",
    ].join("\n"),
    "alpha/lonely.py": ['"""Lonely."""', "", "", "def alone():", '    """Alone."""', "    return 1", ""].join("\n"),
    "tests/__init__.py": "",
    "tests/test_core.py":
      "import unittest\nfrom alpha.core import clamp\n\n\nclass T(unittest.TestCase):\n    def test_clamp(self):\n        self.assertEqual(clamp(5), 3)\n",
  },
  "Util/beta": {
    "beta/__init__.py": "",
    "beta/leaf/__init__.py": "",
    "beta/leaf/one.py": '"""One."""\nfrom . import two\n\n\ndef one():\n    """One."""\n    return two.TWO - 1\n',
    "beta/leaf/two.py": '"""Two."""\nTWO = 2\n',
    "beta/mod.py": '"""Mod."""\nfrom beta.leaf.one import one\n\n\ndef run():\n    """Run."""\n    return one()\n',
  },
};

const sample = (
  over: Partial<DevEvalSample> & Pick<DevEvalSample, "namespace" | "completion_path" | "project_path">,
): DevEvalSample => ({
  type: "function",
  signature_position: [1, 1],
  body_position: [1, 1],
  dependency: { intra_class: [], intra_file: [], cross_file: [] },
  requirement: { Functionality: "Do the thing.", Arguments: ":param x: Int. The input.\n:return: Int. The result." },
  tests: [],
  indent: 4,
  ...over,
});

const SAMPLES: DevEvalSample[] = [
  sample({
    namespace: "alpha.core.clamp",
    project_path: "Util/alpha",
    completion_path: "Util/alpha/alpha/core.py",
    signature_position: [7, 7],
    body_position: [9, 9],
    dependency: { intra_class: [], intra_file: ["alpha.core.LIMIT"], cross_file: [] },
    tests: ["tests/test_core.py::T::test_clamp"],
  }),
  sample({
    namespace: "alpha.core.Box.size",
    type: "method",
    indent: 8,
    project_path: "Util/alpha",
    completion_path: "Util/alpha/alpha/core.py",
    signature_position: [15, 16],
    body_position: [18, 18],
  }),
  sample({
    namespace: "alpha.use.twice",
    project_path: "Util/alpha",
    completion_path: "Util/alpha/alpha/use.py",
    signature_position: [5, 5],
    body_position: [7, 7],
    dependency: { intra_class: [], intra_file: [], cross_file: ["alpha.core.clamp"] },
  }),
  // Wrong recorded position: must be reported, never used.
  sample({
    namespace: "alpha.other.third",
    project_path: "Util/alpha",
    completion_path: "Util/alpha/alpha/other.py",
    signature_position: [4, 4],
    body_position: [7, 7],
  }),
  sample({
    namespace: "beta.mod.run",
    project_path: "Util/beta",
    completion_path: "Util/beta/beta/mod.py",
    signature_position: [5, 5],
    body_position: [7, 7],
    dependency: { intra_class: [], intra_file: [], cross_file: ["beta.leaf.one.one"] },
  }),
];

let root: string;
let built: BuiltBenchmark;

beforeAll(async () => {
  root = writeSourceCode("bench-build-", FILES);
  built = await buildBenchmark({ benchmarkId: "t", seed: 1, splitSize: 2, samples: SAMPLES, sourceCodeDir: root });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const instancesOf = (subtask: string) => built.instances.filter((b) => b.instance.subtask === subtask);

describe("buildBenchmark on hand-made repositories", () => {
  it("reports a wrong recorded position instead of using it", () => {
    expect(built.mismatches).toEqual([
      { namespace: "alpha.other.third", problem: expect.stringMatching(/not at line 4/) },
    ]);
    expect(built.instances.some((b) => b.instance.sourceSample === "alpha.other.third")).toBe(false);
  });

  it("splits code generation by context and masks the body behind the requirement", async () => {
    expect(instancesOf("codegen_function").map((b) => b.instance.sourceSample)).toEqual([
      "alpha.core.Box.size",
      "alpha.core.clamp",
    ]);
    expect(instancesOf("codegen_repository").map((b) => b.instance.sourceSample)).toEqual([
      "alpha.use.twice",
      "beta.mod.run",
    ]);
    const clamp = instancesOf("codegen_file").find((b) => b.instance.sourceSample === "alpha.core.clamp")!;
    const masked = clamp.setup[0]!.content!.toString("utf8");
    expect(masked).toContain(
      'def clamp(value: int, limit: int = LIMIT) -> int:\n    """\n    Do the thing.\n\n    :param x: Int. The input.',
    );
    expect(masked).not.toContain("return min(value, limit)");
    expect(masked).toContain("class Box:");
    expect(firstSyntaxError(await parsePython(masked))).toBeNull();
    expect(clamp.instance.groundTruth).toMatchObject({
      originalFile: "alpha/core.py",
      targetQualifiedName: "clamp",
      signature: "def clamp(value: int, limit: int = LIMIT) -> int:",
      body: "    return min(value, limit)",
      tests: ["tests/test_core.py::T::test_clamp"],
    });
    expect(clamp.instance.contract).toEqual({
      mustRead: ["alpha/core.py"],
      mayChange: ["alpha/core.py"],
      expectedCreate: [],
      expectedDelete: [],
    });
    const fn = instancesOf("codegen_function").find((b) => b.instance.sourceSample === "alpha.core.clamp")!;
    expect(fn.instance.contract.mayChange).toEqual([]);
  });

  it("keeps decorators in the signature of a method target", () => {
    const size = instancesOf("codegen_function").find((b) => b.instance.sourceSample === "alpha.core.Box.size")!;
    expect(size.instance.groundTruth.signature).toBe("    @property\n    def size(self):");
  });

  it("gives repository-level, execution and testing instances the dependency files to read", () => {
    for (const subtask of ["codegen_repository", "execution", "testing"]) {
      const twice = instancesOf(subtask).find((b) => b.instance.sourceSample === "alpha.use.twice")!;
      expect(twice.instance.contract.mustRead).toEqual(["alpha/core.py", "alpha/use.py"]);
    }
    expect(instancesOf("execution")[0]!.setup).toEqual([]);
    expect(instancesOf("testing")[0]!.instance.contract.mayChange).toEqual([]);
  });

  it("moves a module-level function with its dependents in the contract", () => {
    const moveNew = instancesOf("add_new_file").find((b) => b.instance.sourceSample === "alpha.core.clamp")!;
    expect(moveNew.instance.contract).toEqual({
      mustRead: ["alpha/core.py", "alpha/other.py", "alpha/use.py", "tests/test_core.py"],
      mayChange: ["alpha/core.py", "alpha/other.py", "alpha/use.py", "tests/test_core.py"],
      expectedCreate: ["alpha/clamp.py"],
      expectedDelete: [],
    });
    expect(moveNew.instance.prompt).toContain("alpha/clamp.py");
    expect(moveNew.instance.groundTruth.body).toContain(
      'def clamp(value: int, limit: int = LIMIT) -> int:\n    """Clamp a value."""\n    return min(value, limit)',
    );
    const moveExisting = instancesOf("add_existing_file").find((b) => b.instance.sourceSample === "alpha.core.clamp")!;
    // use.py and other.py import core: moving clamp into them would make a cycle; lonely.py does not.
    expect(moveExisting.instance.prompt).toContain("alpha/lonely.py");
    expect(moveExisting.instance.contract.mayChange).toContain("alpha/lonely.py");
    // No method moves, and a function nobody imports gets no "existing file" move.
    expect(instancesOf("add_new_file").some((b) => b.instance.sourceSample === "alpha.core.Box.size")).toBe(false);
  });

  it("plants a foreign file into a leaf package and expects exactly it deleted", () => {
    const irrelevant = instancesOf("delete_irrelevant_file").find((b) => b.projectPath === "Util/beta");
    const planted = irrelevant!.setup[0]!.path;
    expect(planted.startsWith("beta/leaf/")).toBe(true);
    expect(irrelevant!.instance.contract.expectedDelete).toEqual([planted]);
    expect(irrelevant!.instance.contract.mustRead).toEqual(
      [...["beta/leaf/__init__.py", "beta/leaf/one.py", "beta/leaf/two.py", planted]].sort(),
    );
  });

  it("deletes named source files, never tests or __init__", () => {
    const files = instancesOf("delete_file").map((b) => b.instance.contract.expectedDelete[0]);
    expect(files).toContain("alpha/core.py");
    expect(files.some((f) => f?.includes("__init__") || f?.startsWith("tests/"))).toBe(false);
  });

  it("chooses the split and paraphrases by seed, reproducibly", async () => {
    for (const [subtask, count] of Object.entries(built.splitCounts)) {
      expect(count).toBe(Math.min(2, built.counts[subtask as keyof typeof built.counts]));
    }
    const again = await buildBenchmark({
      benchmarkId: "t",
      seed: 1,
      splitSize: 2,
      samples: [...SAMPLES].reverse(),
      sourceCodeDir: root,
    });
    expect(JSON.stringify(again.instances)).toBe(JSON.stringify(built.instances));
    const reseeded = await buildBenchmark({
      benchmarkId: "t",
      seed: 2,
      splitSize: 2,
      samples: SAMPLES,
      sourceCodeDir: root,
    });
    expect(reseeded.instances.map((b) => b.instance.prompt)).not.toEqual(built.instances.map((b) => b.instance.prompt));
  });
});
