/**
 * Compiling only the changed chunk gives CPython's verdict on the whole file: on the sample corpus
 * and the real DevEval repositories, under edits of many kinds (lines inserted, replaced, deleted,
 * indented, joined by a continuation; `global`, `__future__`, `return`, `yield`, `await` and broken
 * brackets among them), the verdict of compileCheckEdited equals that of compiling the whole file,
 * message and position included.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { changedChunk, compileCheckEdited, compiledBaseOf, type CompiledBase } from "./compile-edit";
import { compileCheck, stopCompileHelper } from "./cpython-check";
import { parsePython } from "./python-parser";
import { pythonFilesOf, randomEdits } from "./test-support";

// The helper's first start (bubblewrap probe included) can take seconds on a loaded machine.
beforeAll(async () => {
  await compileCheck("");
}, 60_000);
afterAll(() => stopCompileHelper());

async function baseOf(text: string): Promise<CompiledBase | null> {
  if (!(await compileCheck(text)).ok) return null;
  const tree = await parsePython(text);
  try {
    return tree.rootNode.hasError ? null : compiledBaseOf(tree, text);
  } finally {
    tree.delete();
  }
}

/** Every edit's verdict by chunk equals the whole file's; returns how many were settled by a chunk. */
async function checkFile(text: string, edits: number, seed: number): Promise<{ edits: number; chunked: number }> {
  const base = await baseOf(text);
  if (!base) return { edits: 0, chunked: 0 };
  let chunked = 0;
  const all = randomEdits(text, edits, seed);
  for (const edited of all) {
    const chunk = changedChunk(base, edited);
    if (chunk !== null && (await compileCheck(chunk)).ok) chunked++;
    const whole = await compileCheck(edited);
    // The chunk is shown when they differ: the edit that broke the rule.
    expect({ chunk, verdict: await compileCheckEdited(edited, base) }).toEqual({ chunk, verdict: whole });
  }
  return { edits: all.length, chunked };
}

describe("changedChunk", () => {
  const text = 'import os\n\n\ndef f(a):\n    """Doc."""\n    return a\n\n# between\n\nclass C:\n    x = 1\n';

  it("takes the whole top-level statements an edit touches", async () => {
    const base = (await baseOf(text))!;
    expect(changedChunk(base, text.replace("return a", "return a + 1"))).toBe(
      'def f(a):\n    """Doc."""\n    return a + 1\n',
    );
    expect(changedChunk(base, text.replace("x = 1", "x = 2\n    y = 3"))).toBe("class C:\n    x = 2\n    y = 3\n");
    expect(changedChunk(base, text)).toBe("");
  });

  it("takes only the edited lines between statements, and what is appended", async () => {
    const base = (await baseOf(text))!;
    expect(changedChunk(base, text.replace("# between", "# changed"))).toBe("# changed\n");
    expect(changedChunk(base, `${text}z = 1\n`)).toBe("z = 1\n");
  });

  it("leaves module-level globals, __future__ imports and continuations to the whole file", async () => {
    const base = (await baseOf(text))!;
    expect(changedChunk(base, `${text}global os\n`)).toBeNull();
    expect(changedChunk(base, `${text}x = 1; global os\n`)).toBeNull();
    expect(changedChunk(base, `from __future__ import annotations\n${text}`)).toBeNull();
    const withGlobal = (await baseOf(`global q\n${text}`))!;
    expect(changedChunk(withGlobal, `global q\n${text}z = 1\n`)).toBeNull();
    const continued = (await baseOf("x = 1 + \\\n    2\n# c\n"))!;
    expect(changedChunk(continued, "x = 1 + \\\n    2\n# d\n")).toBe("# d\n");
    // `x = 1 \` then a comment compiles (the comment ends the joined line); code there would not.
    const joined = (await baseOf("x = 1 \\\n# c\ny = 2\n"))!;
    expect(changedChunk(joined, "x = 1 \\\nz = 3\ny = 2\n")).toBe("x = 1 \\\nz = 3\n");
  });

  it("puts the original's __future__ imports before the chunk", async () => {
    const future = `"""Doc."""\nfrom __future__ import annotations\n${text}`;
    const base = (await baseOf(future))!;
    expect(changedChunk(base, future.replace("x = 1", "x: int = 1"))).toBe(
      '"""Doc."""\nfrom __future__ import annotations\nclass C:\n    x: int = 1\n',
    );
    expect(changedChunk(base, future.replace('"""Doc."""', '"""Other."""'))).toBeNull();
  });

  it("is refused what compiles alone but not in the file", async () => {
    const base = (await baseOf("def f():\n    return 1\n\n# gap\nx = 2\n"))!;
    // The gap line indented joins f's body in the file; alone it is an unexpected indent.
    const inBody = "def f():\n    return 1\n\n    y = 3\nx = 2\n";
    expect(await compileCheckEdited(inBody, base)).toEqual(await compileCheck(inBody));
    const assigned = (await baseOf("x = 1\n\ny = 2\n"))!;
    const declared = "x = 1\n\nglobal x\n";
    expect(await compileCheckEdited(declared, assigned)).toEqual(await compileCheck(declared));
    expect((await compileCheck(declared)).ok).toBe(false);
    const joined = (await baseOf("x = 1 \\\n# c\ny = 2\n"))!;
    const continued = "x = 1 \\\nz = 3\ny = 2\n";
    expect(await compileCheckEdited(continued, joined)).toEqual(await compileCheck(continued));
    expect((await compileCheck(continued)).ok).toBe(false);
    // `x = 1 \` then an empty line compiles too; tree-sitter ends the statement before that line.
    const blank = (await baseOf("x = 1 \\\n\ny = 2\n"))!;
    const filled = "x = 1 \\\nz = 3\ny = 2\n";
    expect(await compileCheckEdited(filled, blank)).toEqual(await compileCheck(filled));
  });
});

/** Every file of `dir` under `edits` edits each: the chunk's verdict is the whole file's, and most edits take the chunk. */
async function checkFiles(dir: string, edits: number, seed: number): Promise<void> {
  let total = { edits: 0, chunked: 0 };
  for (const [i, file] of pythonFilesOf(dir).entries()) {
    const counts = await checkFile(fs.readFileSync(path.join(dir, file), "utf8"), edits, seed + i);
    total = { edits: total.edits + counts.edits, chunked: total.chunked + counts.chunked };
  }
  expect(total.edits).toBeGreaterThan(1000);
  // Most edits are settled by their chunk: the test is not only of the fallback.
  expect(total.chunked / total.edits).toBeGreaterThan(0.3);
}

const SAMPLE = "data/sample-corpus/Source_Code";

describe("the chunk's verdict is the whole file's, on the sample corpus", () => {
  it("under 12 edits of every file", () => checkFiles(SAMPLE, 12, 1000), 120_000);
});

describeWithTestData(
  "the chunk's verdict is the whole file's, on the DevEval repositories",
  "deveval/Source_Code",
  (dir) => {
    it("under 40 edits of every file", () => checkFiles(dir, 40, 2000), 180_000);
  },
);
