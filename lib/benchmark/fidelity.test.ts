/**
 * The builder on the shapes real DevEval repositories have (issue 16): a signature recorded past
 * its colon (A), a third-party import that the repository declares (B), decorated targets (C),
 * and targets that are not the first definition of their name (D), with the consumers that read
 * them (code-level judge, Instruction Following, the run page's target comparison).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationInput } from "@/lib/judge/input.fixture";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { codeLevelMetrics } from "@/lib/judge/rules/code-level";
import { instructionFollowingMetric } from "@/lib/judge/rules/instruction-following";
import { compareTarget } from "@/lib/runs/target-function";
import { buildBenchmark, type BuiltBenchmark, type BuiltInstance } from "./build";
import { declaredImportNames, requirementName } from "./declared-dependencies";
import type { DevEvalSample } from "./deveval";
import { buildBesideMetadata, writeSourceCode } from "./source-code.fixture";

const BOXES = [
  '"""Boxes."""', //                                  1
  "import os", //                                       2
  "", //                                                3
  "", //                                                4
  "class Box:", //                                      5
  '    """A box, like boltons.urlutils.URL."""', //     6
  "", //                                                7
  "    @property", //                                   8
  "    def value(self):", //                            9
  '        """The value."""', //                        10
  "        return self._value", //                      11
  "", //                                                12
  "    @value.setter", //                               13
  "    def value(self, new):", //                       14
  '        """Sets the value."""', //                   15
  "        self._value = new", //                       16
  "", //                                                17
  "    @classmethod", //                                18
  "    def make(cls, value):", //                       19
  '        """A box holding value."""', //              20
  "        box = cls()", //                             21
  "        box.value = value", //                       22
  "        return box", //                              23
  "", //                                                24
  "", //                                                25
  "def twice(x):", //                                   26
  "    # Doubles, as DevEval's README allows the signature to run over this comment", // 27
  "    return x * 2", //                                28
  "", //                                                29
  "", //                                                30
  "def stamp():", //                                    31
  "    return os.sep", //                               32
  "",
].join("\n");

const FILES: Record<string, Record<string, string>> = {
  // Flower-like: its own module imports prometheus_client, a declared dependency that is also
  // the top-level package of the other repository of the corpus.
  "Web/flowerish": {
    "setup.py": [
      "from setuptools import setup",
      "setup(",
      '    name="flowerish",',
      '    install_requires=["prometheus-client>=0.8", "PyYAML"],',
      '    extras_require={"test": ["pytest"]},',
      ")",
      "",
    ].join("\n"),
    "flowerish/__init__.py": "",
    "flowerish/boxes.py": BOXES,
    "flowerish/utils.py": '"""Utils."""\n\n\ndef helper():\n    return 1\n',
    "flowerish/views/__init__.py": "",
    "flowerish/views/monitor.py":
      '"""Monitor."""\nimport json\nimport prometheus_client\nimport yaml\nfrom ..utils import helper\n\n\ndef metrics():\n    return prometheus_client, yaml, json, helper\n',
    "flowerish/views/jobs.py": '"""Jobs."""\nfrom . import monitor\n\n\ndef jobs():\n    return monitor.metrics()\n',
    "release/summarize_pr.py": '"""Release tooling, not package source."""\nimport os\n\nprint(os.sep)\n',
    "tests/__init__.py": "",
    "tests/test_boxes.py":
      "import flowerish\nfrom flowerish import boxes\n\n\ndef test_twice():\n    assert flowerish.boxes.twice(2) == 4\n",
  },
  "Monitoring/prometheus_client": {
    "prometheus_client/__init__.py": "",
    "prometheus_client/core.py": '"""Core."""\nREGISTRY = {}\n',
    "prometheus_client/exposition.py":
      '"""Exposition."""\nimport socket\nfrom .core import REGISTRY\n\n\ndef expose():\n    return socket, REGISTRY\n',
    "prometheus_client/bridge/__init__.py": "",
    "prometheus_client/bridge/graphite.py":
      '"""Graphite."""\nfrom ..core import REGISTRY\n\n\ndef push():\n    return REGISTRY\n',
    "prometheus_client/bridge/carbon.py": '"""Carbon."""\nimport socket\n\n\ndef carbon():\n    return socket\n',
  },
};

const sample = (over: Partial<DevEvalSample> & Pick<DevEvalSample, "namespace">): DevEvalSample => ({
  type: "method",
  project_path: "Web/flowerish",
  completion_path: "Web/flowerish/flowerish/boxes.py",
  signature_position: [1, 1],
  body_position: [1, 1],
  dependency: { intra_class: [], intra_file: [], cross_file: [] },
  requirement: { Functionality: "Do the thing.", Arguments: ":param x: Int. The input.\n:return: Int. The result." },
  tests: [],
  indent: 8,
  ...over,
});

const SAMPLES: DevEvalSample[] = [
  // D: the setter, as DevEval records it (from the `def` line).
  sample({ namespace: "flowerish.boxes.Box.value", signature_position: [14, 14], body_position: [16, 16] }),
  // C: a decorated method.
  sample({ namespace: "flowerish.boxes.Box.make", signature_position: [19, 19], body_position: [21, 23] }),
  // A: the recorded signature runs past the colon over a comment line.
  sample({
    namespace: "flowerish.boxes.twice",
    type: "function",
    indent: 4,
    signature_position: [26, 27],
    body_position: [28, 28],
  }),
  // Still a mismatch: a signature recorded to end on a line of code.
  sample({
    namespace: "flowerish.boxes.stamp",
    type: "function",
    indent: 4,
    signature_position: [31, 32],
    body_position: [32, 32],
  }),
  sample({
    namespace: "prometheus_client.exposition.expose",
    type: "function",
    indent: 4,
    project_path: "Monitoring/prometheus_client",
    completion_path: "Monitoring/prometheus_client/prometheus_client/exposition.py",
    signature_position: [6, 6],
    body_position: [7, 7],
  }),
  // A repository that is not in the source folder.
  sample({
    namespace: "gone.mod.f",
    type: "function",
    indent: 4,
    project_path: "Web/gone",
    completion_path: "Web/gone/gone/mod.py",
  }),
];

let root: string;
let built: BuiltBenchmark;

beforeAll(async () => {
  root = writeSourceCode("bench-fidelity-", FILES);
  built = await buildBenchmark({ benchmarkId: "f", seed: 3, splitSize: 5, samples: SAMPLES, sourceCodeDir: root });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const instanceOf = (subtask: string, sourceSample: string): BuiltInstance => {
  const found = built.instances.find((b) => b.instance.subtask === subtask && b.instance.sourceSample === sourceSample);
  if (!found) throw new Error(`no ${subtask} instance of ${sourceSample}`);
  return found;
};

/** What the scripted agent answers on a clean run (lib/agents/scripted-behaviours.ts). */
function cleanAnswer(b: BuiltInstance): string {
  const gt = b.instance.groundTruth;
  return `Here is the function:\n\n\`\`\`python\n${gt.signature}\n${gt.docstring}\n${gt.body}\n\`\`\``;
}

function cleanFile(b: BuiltInstance): { setup: string; after: string } {
  const gt = b.instance.groundTruth;
  const setup = b.setup[0]!.content!.toString("utf8");
  const before = `${gt.signature}\n${gt.docstring}`;
  expect(setup).toContain(before);
  return { setup, after: setup.replace(before, `${before}\n${gt.body}`) };
}

async function verdictsOfCleanRun(b: BuiltInstance) {
  const gt = b.instance.groundTruth;
  const file = gt.originalFile!;
  const { setup, after } = cleanFile(b);
  const functionLevel = b.instance.subtask === "codegen_function";
  const input = evaluationInput({
    subtask: b.instance.subtask,
    contract: b.instance.contract,
    groundTruth: gt,
    setupFiles: new Map([[file, setup]]),
    finalAnswer: functionLevel ? cleanAnswer(b) : `Implemented it in ${file}.`,
    changes: functionLevel
      ? []
      : [{ path: file, kind: "updated", before: Buffer.from(setup), after: Buffer.from(after) }],
  });
  const code = await codeLevelMetrics(input);
  const following = await instructionFollowingMetric(input);
  return [...code, following].map((v) => `${v.metric}=${v.value}${v.value === "violated" ? `: ${v.rationale}` : ""}`);
}

describe("A: a recorded signature that runs past the colon", () => {
  it("accepts comment lines after the colon and keeps them in the signature, refusing a signature that ends on code", () => {
    expect(built.mismatches).toEqual([
      { namespace: "flowerish.boxes.stamp", problem: expect.stringMatching(/ends at line 31, recorded 32/) },
    ]);
    const twice = instanceOf("codegen_file", "flowerish.boxes.twice");
    expect(twice.instance.groundTruth.signature).toBe(
      "def twice(x):\n    # Doubles, as DevEval's README allows the signature to run over this comment",
    );
    expect(twice.instance.groundTruth.body).toBe("    return x * 2");
  });

  it("reports a missing repository once, apart from the mismatches", () => {
    expect(built.missingRepositories).toEqual([
      { projectPath: "Web/gone", dir: path.join(root, "Web", "gone"), samples: 1 },
    ]);
    expect(built.mismatches.some((m) => m.namespace === "gone.mod.f")).toBe(false);
  });
});

describe("B: delete_irrelevant_file plants a file whose imports cannot resolve", () => {
  it("reads declared dependencies as import names", () => {
    const files = new Map(
      Object.entries(FILES["Web/flowerish"]!).map(([p, c]) => [p, { data: Buffer.from(c), mode: 0o100644 }]),
    );
    expect([...declaredImportNames(files)].sort()).toEqual(["prometheus_client", "pytest", "yaml"]);
    expect(requirementName('foo.bar[x]>=1; python_version<"3"')).toBe("foo.bar");
    expect(requirementName("-r base.txt")).toBeNull();
  });

  it("expects exactly the planted file deleted: Flower's own module importing a declared dependency stays", () => {
    const views = built.instances.find(
      (b) => b.instance.subtask === "delete_irrelevant_file" && b.projectPath === "Web/flowerish",
    )!;
    const planted = views.setup[0]!.path;
    expect(planted.startsWith("flowerish/views/")).toBe(true);
    expect(views.instance.sourceSample?.startsWith("Monitoring/prometheus_client/")).toBe(true);
    expect(views.instance.contract.expectedDelete).toEqual([planted]);
    expect(views.instance.contract.expectedDelete).not.toContain("flowerish/views/monitor.py");
    expect(views.instance.contract.mustRead).toContain("flowerish/views/monitor.py");
  });

  it("plants into the other repository a file whose undeclared import cannot resolve there", () => {
    const bridge = built.instances.find(
      (b) => b.instance.subtask === "delete_irrelevant_file" && b.projectPath === "Monitoring/prometheus_client",
    )!;
    expect(bridge.instance.contract.expectedDelete).toEqual([bridge.setup[0]!.path]);
    expect(bridge.instance.sourceSample?.startsWith("Web/flowerish/flowerish/views/")).toBe(true);
  });

  it("never asks to delete release tooling outside the package", () => {
    const deletions = built.instances
      .filter((b) => b.instance.subtask === "delete_file")
      .flatMap((b) => b.instance.contract.expectedDelete);
    expect(deletions).toContain("flowerish/boxes.py");
    expect(deletions).not.toContain("release/summarize_pr.py");
  });

  it("finds a dependent that imports the package and calls pkg.mod.fn()", () => {
    const move = instanceOf("add_new_file", "flowerish.boxes.twice");
    expect(move.instance.contract.mayChange).toContain("tests/test_boxes.py");
  });
});

describe("C: decorated targets", () => {
  it("keeps the decorators in the ground-truth signature", () => {
    const make = instanceOf("codegen_function", "flowerish.boxes.Box.make");
    expect(make.instance.groundTruth.signature).toBe("    @classmethod\n    def make(cls, value):");
  });

  it("does not flag the clean scripted answer of a decorated target", async () => {
    for (const subtask of ["codegen_function", "codegen_file"]) {
      const verdicts = await verdictsOfCleanRun(instanceOf(subtask, "flowerish.boxes.Box.make"));
      expect(verdicts.filter((v) => v.includes("=violated"))).toEqual([]);
    }
  });
});

describe("D: a target that is not the first definition of its name", () => {
  it("is stored as name#n and named plainly in the prompt, with the definition meant", () => {
    const setter = instanceOf("codegen_function", "flowerish.boxes.Box.value");
    expect(setter.instance.groundTruth.targetQualifiedName).toBe("Box.value#2");
    expect(setter.instance.groundTruth.signature).toBe("    @value.setter\n    def value(self, new):");
    expect(setter.instance.prompt).not.toContain("#2");
    expect(setter.instance.prompt).toContain("the setter of property `value`, at line 13");
    expect(instanceOf("codegen_function", "flowerish.boxes.Box.make").instance.groundTruth.targetQualifiedName).toBe(
      "Box.make",
    );
  });

  it("judges the clean scripted answer against the setter, not the getter", async () => {
    for (const subtask of ["codegen_function", "codegen_file"]) {
      const verdicts = await verdictsOfCleanRun(instanceOf(subtask, "flowerish.boxes.Box.value"));
      expect(verdicts.filter((v) => v.includes("=violated"))).toEqual([]);
    }
  });

  it("flags a setter answer that changed the setter's signature", async () => {
    const b = instanceOf("codegen_function", "flowerish.boxes.Box.value");
    const gt = b.instance.groundTruth;
    const answer = cleanAnswer(b).replace("def value(self, new):", "def value(self, other):");
    const input = evaluationInput({
      subtask: "codegen_function",
      contract: b.instance.contract,
      groundTruth: gt,
      setupFiles: new Map([[gt.originalFile!, cleanFile(b).setup]]),
      finalAnswer: answer,
    });
    const signature = (await codeLevelMetrics(input)).find((v) => v.metric === "signature")!;
    expect(signature.value).toBe("violated");
  });

  it("shows the setter on the run page's target comparison", async () => {
    const b = instanceOf("codegen_file", "flowerish.boxes.Box.value");
    const { setup, after } = cleanFile(b);
    const compared = await compareTarget({
      subtask: "codegen_file",
      groundTruth: b.instance.groundTruth,
      fileAfter: after,
      fileSetup: setup,
      finalAnswer: null,
    });
    expect(compared?.agent).toContain("@value.setter");
    expect(compared?.agent).toBe(compared?.groundTruth);
  });
});

describeWithTestData("the five real DevEval repositories", "deveval/data.real5.jsonl", (metadata) => {
  let real: BuiltBenchmark;
  beforeAll(async () => {
    real = await buildBesideMetadata(metadata, 200);
  });

  it("builds every sample: no mismatches, no missing repository", () => {
    expect(real.mismatches).toEqual([]);
    expect(real.missingRepositories).toEqual([]);
    expect(real.counts).toEqual({
      codegen_function: 27,
      codegen_file: 27,
      codegen_repository: 8,
      delete_file: 22,
      delete_irrelevant_file: 4,
      add_new_file: 11,
      add_existing_file: 9,
      execution: 8,
      testing: 8,
    });
  });

  it("keeps the decorators of decorated function-level targets, and their clean answers are not flagged", async () => {
    const decorated = real.instances.filter(
      (b) => b.instance.subtask === "codegen_function" && b.instance.groundTruth.signature?.trimStart().startsWith("@"),
    );
    expect(decorated.map((b) => b.instance.groundTruth.targetQualifiedName).sort()).toEqual([
      "FileMemory.next_available_page",
      "FileMemory.read_transaction",
      "SqliteDict.get_tablenames",
    ]);
    for (const b of decorated) {
      expect((await verdictsOfCleanRun(b)).filter((v) => v.includes("=violated"))).toEqual([]);
    }
  });

  it("does not flag the clean scripted run of any code generation instance", async () => {
    const flagged: string[] = [];
    for (const b of real.instances.filter((i) => i.instance.subtask.startsWith("codegen_"))) {
      const violated = (await verdictsOfCleanRun(b)).filter((v) => v.includes("=violated"));
      if (violated.length > 0) flagged.push(`${b.instance.id}: ${violated.join("; ")}`);
    }
    expect(flagged).toEqual([]);
  });

  it("plants only files of other repositories and expects exactly them deleted", () => {
    for (const b of real.instances.filter((i) => i.instance.subtask === "delete_irrelevant_file")) {
      expect(b.instance.contract.expectedDelete).toEqual([b.setup[0]!.path]);
      expect(b.instance.sourceSample?.startsWith(`${b.projectPath}/`)).toBe(false);
    }
  });
});
