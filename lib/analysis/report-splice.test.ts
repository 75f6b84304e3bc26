/**
 * spliceReport on small modules, edit by edit: where it applies, its report is the fresh
 * analysis's, byte for byte; where a kept statement would be read wrong, it declines (null) and
 * the caller analyzes the whole file. analysis-reuse.test.ts does the same on real files.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { analyzeDecoded, analyzeDecodedCached, analyzePython, decodePythonText } from "./ast-report";
import { ReportCache } from "./report-cache";
import { pythonFilesOf, randomEdits, spliceAgainst, structureOf } from "./test-support";

const ORIGINAL = `"""The module."""
import os

LIMIT = 3; NAME = "x"


def helper(a, b=1):
    return a + b


class Store:
    size = 1

    def get(self, key):
        return key

    def put(self, key, value):
        pass


if os.name == "nt":
    def native():
        return 1
`;

/** The spliced report (or null) and whether it equals a fresh analysis of `edited`. */
async function splice(edited: string) {
  const cache = new ReportCache();
  const original = decodePythonText(ORIGINAL);
  await analyzeDecodedCached(original, cache);
  const key = ReportCache.keyOf(original);
  const spliced = await spliceAgainst(cache, key, edited);
  const fresh = await analyzeDecoded(decodePythonText(edited));
  // Through the cache, the report an edit gets (spliced or not) is the fresh one too.
  const reused = await analyzeDecoded(decodePythonText(edited), { cache, baseKey: key });
  expect(JSON.stringify(reused)).toBe(JSON.stringify(fresh));
  return { spliced, same: JSON.stringify(spliced) === structureOf(fresh) };
}

const replaced = (from: string, to: string) => {
  expect(ORIGINAL).toContain(from);
  return ORIGINAL.replace(from, to);
};

describe("spliceReport", () => {
  beforeAll(() => analyzePython("x = 1\n"), 60_000);

  it.each([
    ["a method's body changed", replaced("        return key", "        return key * 2")],
    ["a function added between two", replaced("\n\nclass Store:", "\n\ndef extra():\n    pass\n\n\nclass Store:")],
    ["lines added above later definitions", replaced("import os\n", "import os\nimport sys\nimport re\n")],
    ["a definition removed", replaced("def helper(a, b=1):\n    return a + b\n", "")],
    [
      "a redefinition before a definition (its occurrence is 2 now)",
      replaced("class Store:", "def get():\n    pass\n\n\nclass Store:"),
    ],
    ["an else added to a block with a definition", `${ORIGINAL}else:\n    def native():\n        return 2\n`],
    ["a class attribute changed", replaced("    size = 1", "    size = 2")],
    ["a comment at the end", `${ORIGINAL}# edited\n`],
    // Both statements of the row are analyzed: the import moved along it.
    ["a statement put before another on its row", replaced("import os", "x = 1; import os")],
  ])("%s: spliced, the fresh report", async (_, edited) => {
    const { spliced, same } = await splice(edited);
    expect(spliced).not.toBeNull();
    expect(same).toBe(true);
  });

  it.each([
    ["the docstring (the first statement) changed", replaced('"""The module."""', '"""Another."""')],
    ["a statement put before the docstring", `import sys\n${ORIGINAL}`],
    ["the second of two statements on a row changed", replaced('NAME = "x"', 'NAME = "y"')],
    ["the first of two statements on a row changed", replaced("LIMIT = 3;", "LIMIT = 4;")],
    ["an edit that does not parse", replaced("    return a + b", "    return a +")],
  ])("%s: declined (analyzed whole)", async (_, edited) => {
    const { spliced } = await splice(edited);
    expect(spliced).toBeNull();
  });
});

/**
 * Every file of `dir` under random edits (test-support.ts's, the Syntax chunk's test's): the report
 * an edit gets through the cache (spliced where it can be) is the fresh analysis's, byte for byte,
 * and many of them were spliced (the test is not only of the fallback).
 */
async function checkFiles(dir: string, edits: number, seed: number): Promise<void> {
  let total = 0;
  let spliced = 0;
  for (const [i, file] of pythonFilesOf(dir).entries()) {
    const text = decodePythonText(fs.readFileSync(path.join(dir, file), "utf8")).text;
    const cache = new ReportCache();
    const original = decodePythonText(text);
    await analyzeDecodedCached(original, cache);
    const key = ReportCache.keyOf(original);
    for (const edited of randomEdits(text, edits, seed + i)) {
      if (await spliceAgainst(cache, key, edited)) spliced++;
      total++;
      const decoded = decodePythonText(edited);
      const reused = await analyzeDecoded(decoded, { cache, baseKey: key });
      expect(JSON.stringify(reused), `${file}, edit:\n${edited}`).toBe(JSON.stringify(await analyzeDecoded(decoded)));
    }
  }
  expect(total).toBeGreaterThan(500);
  expect(spliced / total).toBeGreaterThan(0.2);
}

describe("spliced reports under random edits, on the sample corpus", () => {
  it("under 6 edits of every file", () => checkFiles("data/sample-corpus/Source_Code", 6, 3000), 180_000);
});

describeWithTestData(
  "spliced reports under random edits, on the DevEval repositories",
  "deveval/Source_Code",
  (dir) => {
    it("under 12 edits of every file", () => checkFiles(dir, 12, 4000), 180_000);
  },
);
