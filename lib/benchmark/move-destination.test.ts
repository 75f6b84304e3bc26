import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { buildBenchmark } from "./build";
import type { DevEvalSample } from "./deveval";
import { writeSourceCode } from "./source-code.fixture";

/**
 * gamma/core.py imports gamma/helpers.py, and core.scale uses core's own SCALE. Moved verbatim
 * into helpers.py, scale needs `from gamma.core import SCALE` there, which runs while core is half
 * imported (core imports helpers first): no clean answer exists, so helpers.py is never the
 * destination. use.py imports core (the usual cycle) and is excluded too.
 */
const FILES = {
  "Util/gamma": {
    "gamma/__init__.py": "",
    "gamma/helpers.py": '"""Helpers."""\n\n\ndef double(x):\n    """Double."""\n    return 2 * x\n',
    "gamma/core.py": [
      '"""Core."""',
      "from gamma import helpers",
      "",
      "SCALE = 3",
      "",
      "",
      "def scale(x):",
      '    """Scale."""',
      "    return helpers.double(x) * SCALE",
      "",
    ].join("\n"),
    "gamma/use.py": '"""Use."""\nfrom gamma.core import scale\n\n\ndef run():\n    """Run."""\n    return scale(1)\n',
  },
};

const SAMPLE: DevEvalSample = {
  namespace: "gamma.core.scale",
  type: "function",
  project_path: "Util/gamma",
  completion_path: "Util/gamma/gamma/core.py",
  signature_position: [7, 7],
  body_position: [9, 9],
  dependency: { intra_class: [], intra_file: ["gamma.core.SCALE"], cross_file: ["gamma.helpers.double"] },
  requirement: { Functionality: "Scale.", Arguments: ":param x: Int.\n:return: Int." },
  tests: [],
  indent: 4,
};

const root = writeSourceCode("move-destination-", FILES);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("add_existing_file destinations", () => {
  it("never chooses a module the source imports when the function uses the source's own names", async () => {
    const built = await buildBenchmark({
      benchmarkId: "t",
      seed: 1,
      splitSize: 2,
      samples: [SAMPLE],
      sourceCodeDir: root,
    });
    expect(built.mismatches).toEqual([]);
    expect(built.instances.some((b) => b.instance.subtask === "add_new_file")).toBe(true);
    expect(built.instances.filter((b) => b.instance.subtask === "add_existing_file")).toEqual([]);
  });

  it("still chooses it when the function needs nothing of its own file", async () => {
    const plain = { ...SAMPLE, dependency: { ...SAMPLE.dependency, intra_file: [] } };
    const built = await buildBenchmark({
      benchmarkId: "t",
      seed: 1,
      splitSize: 2,
      samples: [plain],
      sourceCodeDir: root,
    });
    const moves = built.instances.filter((b) => b.instance.subtask === "add_existing_file");
    expect(moves.map((b) => b.instance.groundTruth.destinationFile)).toEqual(["gamma/helpers.py"]);
  });
});
