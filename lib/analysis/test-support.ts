/** Helpers for the code-level metric tests. */
import fs from "node:fs";
import path from "node:path";
import { evaluateCodeLevel, type CodeLevelInput } from "./code-metrics";
import { parsePythonEdited } from "./python-parser";
import { ReportCache } from "./report-cache";
import { extentOf, spliceReport, topLevelStatements, type SplicedReport } from "./report-splice";
import { CodeLevelResultSchema, type AstReport, type CodeLevelResult, type CodeMetric } from "./schema";

/** evaluateCodeLevel with target `f` in codegen mode unless told otherwise; the result schema-checked. */
export async function evaluate(
  original: string,
  modified: string | Buffer | null,
  options: Partial<CodeLevelInput> = {},
): Promise<CodeLevelResult> {
  return CodeLevelResultSchema.parse(
    await evaluateCodeLevel({ original, modified, target: "f", mode: "codegen", ...options }),
  );
}

export const messages = (result: CodeLevelResult, metric: CodeMetric) =>
  result.evidence.filter((e) => e.metric === metric).map((e) => e.message);

/**
 * spliceReport of `edited` against the original `cache` holds under `key` (its report and tree),
 * as analyzeDecoded would call it; undefined when the cache holds no tree of it.
 */
export async function spliceAgainst(
  cache: ReportCache,
  key: string,
  edited: string,
): Promise<SplicedReport | null | undefined> {
  const parsed = cache.tree(key);
  const base = cache.get(key);
  if (!parsed || !base) return undefined;
  const baseStatements = topLevelStatements(parsed.tree).map(extentOf);
  const tree = await parsePythonEdited(edited, parsed);
  try {
    return spliceReport({ base, baseText: parsed.text, baseStatements, text: edited, tree, memo: cache.definitions });
  } finally {
    tree.delete();
  }
}

/** What spliceReport makes of a file: its report without what CPython's verdict and the decoding decide. */
export function structureOf(report: AstReport): string {
  const structure: Record<string, unknown> = { ...report };
  for (const key of ["parses", "errors", "structureErrors", "encodingError", "hasBom"]) delete structure[key];
  return JSON.stringify(structure);
}

/** The .py files under `dir` of up to 2,000 lines, sorted: the real data holds one of 9,912 lines, seconds per evaluation. */
export function pythonFilesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".py"))
    .filter((f) => fs.readFileSync(path.join(dir, f), "utf8").split("\n").length <= 2000)
    .sort();
}

/** Lines an edit puts in: valid and invalid at module level and inside a block. */
const PALETTE = [
  "# a comment",
  "",
  "x = 1",
  "    x = 1",
  "\tx = 1",
  "        return x",
  "return 1",
  "yield 2",
  "await z",
  "break",
  "global g",
  "x = 1; global x",
  "    global g",
  "nonlocal q",
  "from __future__ import annotations",
  "from os import *",
  "def f(:",
  "def g(a, a): pass",
  "y = (",
  ")",
  "]",
  "'''",
  's = """',
  "x = 1 + \\",
  "\\",
  "if x:",
  "else:",
  "    pass",
  "class C: pass",
  "print 'x'",
  "async = 1",
  "f() = 1",
  "del f()",
  "0777",
  "lambda: (yield)",
  "@decorator",
  "x: int = 'a'",
];

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` edits of `text`, each of one kind at one place (lines inserted, re-indented, replaced,
 * deleted, indented, continued, duplicated), and `text` with a line appended; deterministic by `seed`.
 */
export function randomEdits(text: string, count: number, seed: number): string[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const lines = text.split("\n");
  const edits: string[] = [`${text}# appended\n`];
  for (let k = 0; k < count; k++) {
    const at = Math.floor(next() * lines.length);
    const copy = [...lines];
    const indent = /^[ \t]*/.exec(lines[at] ?? "")![0];
    switch (Math.floor(next() * 7)) {
      case 0:
        copy.splice(at, 0, pick(PALETTE));
        break;
      case 1:
        copy.splice(at, 0, indent + pick(PALETTE).trimStart());
        break;
      case 2:
        copy[at] = indent + pick(PALETTE).trimStart();
        break;
      case 3:
        copy.splice(at, 1 + Math.floor(next() * 4));
        break;
      case 4:
        copy[at] = `  ${copy[at] ?? ""}`;
        break;
      case 5:
        copy[at] = `${copy[at] ?? ""} \\`;
        break;
      default:
        copy.splice(at, 0, ...lines.slice(at, at + 1 + Math.floor(next() * 6)));
        break;
    }
    edits.push(copy.join("\n"));
  }
  return edits;
}
