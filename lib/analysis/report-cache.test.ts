/**
 * The report cache: bounded by entries and bytes, least recently used out first, its reports
 * frozen; and evaluateCodeLevel through it gives exactly what it gives without it, on the sample
 * corpus and on the real DevEval repositories.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { analyzeDecoded, analyzeDecodedCached, analyzeEdit, analyzePython, decodePythonText } from "./ast-report";
import { evaluateCodeLevel, type CodeLevelInput } from "./code-metrics";
import { parsePython } from "./python-parser";
import { ReportCache } from "./report-cache";
import type { AstReport } from "./schema";
import { pythonFilesOf } from "./test-support";

const source = (i: number) => `def f${i}(x):\n    return x + ${i}\n`;
const reportOf = async (i: number) => analyzePython(source(i));
const key = (i: number) => ReportCache.keyOf(decodePythonText(source(i)));

describe("ReportCache", () => {
  it("holds at most `entries` reports, dropping the least recently used", async () => {
    const cache = new ReportCache({ entries: 2, bytes: 1024 * 1024 });
    cache.set(key(1), await reportOf(1), source(1).length);
    cache.set(key(2), await reportOf(2), source(2).length);
    expect(cache.get(key(1))).toBeDefined(); // now 2 is the least recently used
    cache.set(key(3), await reportOf(3), source(3).length);
    expect(cache.size.entries).toBe(2);
    expect(cache.get(key(2))).toBeUndefined();
    expect(cache.get(key(1))?.functions[0]?.name).toBe("f1");
    expect(cache.get(key(3))?.functions[0]?.name).toBe("f3");
  });

  it("holds at most `bytes` (source and report JSON), and never a report larger than that", async () => {
    const one = source(1).length + JSON.stringify(await reportOf(1)).length;
    const cache = new ReportCache({ entries: 100, bytes: Math.floor(one * 2.5) });
    for (let i = 1; i <= 5; i++) cache.set(key(i), await reportOf(i), source(i).length);
    expect(cache.size.entries).toBe(2);
    expect(cache.size.bytes).toBeLessThanOrEqual(Math.floor(one * 2.5));
    expect([4, 5].map((i) => cache.get(key(i))?.functions[0]?.name)).toEqual(["f4", "f5"]);

    const tiny = new ReportCache({ entries: 100, bytes: 10 });
    const report = tiny.set(key(1), await reportOf(1), source(1).length);
    expect(report.functions[0]?.name).toBe("f1");
    expect(tiny.size).toEqual({ entries: 0, bytes: 0 });
  });

  it("keys by content, BOM included, and hands out the same frozen report", async () => {
    const cache = new ReportCache();
    const decoded = decodePythonText(source(1));
    const first = await analyzeDecodedCached(decoded, cache);
    const again = await analyzeDecodedCached(decodePythonText(source(1)), cache);
    expect(again).toBe(first);
    expect(Object.isFrozen(first.functions[0]!.parameters)).toBe(true);
    expect(await analyzeDecodedCached(decodePythonText(`\uFEFF${source(1)}`), cache)).not.toBe(first);
    expect(first).toEqual(await analyzeDecoded(decoded));
  });

  it("holds an edit's tree for the rules that read the file again, apart from the originals' trees", async () => {
    const cache = new ReportCache();
    const other = decodePythonText(source(3));
    await analyzeDecodedCached(other, cache);
    const original = decodePythonText(`${source(1)}${source(2)}`);
    await analyzeDecodedCached(original, cache);
    const edits = Array.from({ length: 40 }, (_, i) => decodePythonText(`${original.text}# edit ${i}\n`));
    for (const edit of edits) await analyzeEdit(edit, original, cache);
    // The last edits' trees are held, each the tree a fresh parse gives.
    const last = edits.at(-1)!;
    const held = cache.tree(ReportCache.keyOf(last));
    const fresh = await parsePython(last.text);
    expect(held?.tree.rootNode.toString()).toBe(fresh.rootNode.toString());
    fresh.delete();
    // Only the last few edits are held, and forty of them (more than the originals' trees held)
    // pushed out no original's tree: the next run of either is parsed from it.
    expect(cache.tree(ReportCache.keyOf(edits[0]!))).toBeUndefined();
    expect(cache.tree(ReportCache.keyOf(other))).toBeDefined();
    expect(cache.tree(ReportCache.keyOf(original))).toBeDefined();
    // An edit's compiled base is not kept: only originals' are compiled against.
    expect(cache.compiledBase(ReportCache.keyOf(last))).toBeUndefined();
    expect(cache.compiledBase(ReportCache.keyOf(original))).toBeDefined();
  });
});

/** Per file with a function: the file unchanged, plus a comment line, and its first function renamed. */
function inputsOf(original: string, report: AstReport): CodeLevelInput[] {
  const target = report.functions.find((f) => f.occurrence === 1);
  if (!target) return [];
  const renamed = original.replace(`def ${target.name}(`, `def ${target.name}_renamed(`);
  return [original, `${original}\n# a comment\n`, renamed].map((modified) => ({
    original,
    modified,
    target: target.qualifiedName,
    mode: "codegen",
  }));
}

/** Each file: uncached, then twice through one cache (a miss, then a hit), the same results. */
function sameResultsPerFile(dir: string, files: string[]): void {
  it.each(files)("%s: the same results with the cache as without", async (file) => {
    const original = fs.readFileSync(path.join(dir, file), "utf8");
    const report = await analyzePython(original);
    const inputs = report.parses && !report.structureErrors ? inputsOf(original, report) : [];
    const cache = new ReportCache();
    for (const input of inputs) {
      const uncached = await evaluateCodeLevel(input, { cache: null });
      expect(await evaluateCodeLevel(input, { cache })).toEqual(uncached);
      expect(await evaluateCodeLevel(input, { cache })).toEqual(uncached);
    }
    expect(cache.size.entries).toBe(inputs.length > 0 ? 1 : 0);
  });
}

const SAMPLE = "data/sample-corpus/Source_Code";

describe("evaluateCodeLevel with the report cache, on the sample corpus", () => {
  sameResultsPerFile(SAMPLE, pythonFilesOf(SAMPLE));
});

describeWithTestData(
  "evaluateCodeLevel with the report cache, on the DevEval repositories",
  "deveval/Source_Code",
  (dir) => {
    // Skipped (no data), the suite still registers its test by name.
    sameResultsPerFile(dir, fs.existsSync(dir) ? pythonFilesOf(dir) : ["every .py file"]);
  },
);
