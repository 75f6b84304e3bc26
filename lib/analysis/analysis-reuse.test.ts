/**
 * Reuse gives exactly what a fresh analysis gives: an edited file parsed from its original's tree
 * (parsePythonEdited) has the tree a fresh parse has, node for node, and its report, made with the
 * original's definitions at hand (report-definitions.ts), is the fresh report byte for byte. On
 * the sample corpus and the real DevEval repositories, with edits of several kinds per file.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Tree } from "web-tree-sitter";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { analyzeDecoded, analyzeDecodedCached, analyzePython, decodePythonText } from "./ast-report";
import { editBetween, parsePython, parsePythonEdited } from "./python-parser";
import { ReportCache } from "./report-cache";
import type { AstReport } from "./schema";
import { pythonFilesOf, spliceAgainst, structureOf } from "./test-support";

/** Every node: type, field, span (indices and points), missing or not; in walk order. */
function dump(tree: Tree): string {
  const cursor = tree.walk();
  const lines: string[] = [];
  const visit = (depth: number) => {
    do {
      const start = cursor.startPosition;
      const end = cursor.endPosition;
      lines.push(
        `${depth} ${cursor.nodeType} ${cursor.currentFieldName ?? "-"} ${cursor.startIndex}-${cursor.endIndex} ` +
          `${start.row}:${start.column}-${end.row}:${end.column}${cursor.nodeIsMissing ? " missing" : ""}`,
      );
      if (cursor.gotoFirstChild()) {
        visit(depth + 1);
        cursor.gotoParent();
      }
    } while (cursor.gotoNextSibling());
  };
  visit(0);
  cursor.delete();
  return lines.join("\n");
}

/** Edits of a file: none, comments at the end and the top, inside, around and in place of its longest function, cut short. */
function editsOf(original: string, report: AstReport): [string, string][] {
  const lines = original.split("\n");
  const edits: [string, string][] = [
    ["unchanged", original],
    ["a comment line at the end", `${original}\n# edited\n`],
    ["a comment line at the top", `# edited\n${original}`],
    ["the last lines cut", lines.slice(0, -4).join("\n")],
  ];
  const longest = [...report.functions].sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine))[0];
  if (longest) {
    const last = lines[longest.endLine - 1] ?? "";
    const indent = /^\s*/.exec(last)![0];
    const at = (line: number, inserted: string[]) => [...lines.slice(0, line), ...inserted, ...lines.slice(line)];
    edits.push(
      ["a statement after the longest function's last line", at(longest.endLine, [`${indent}edited = 1`]).join("\n")],
      [
        "the longest function removed",
        [...lines.slice(0, longest.startLine - 1), ...lines.slice(longest.endLine)].join("\n"),
      ],
      ["the longest function renamed", original.replace(`def ${longest.name}(`, `def ${longest.name}_renamed(`)],
      [
        "a new function before the longest",
        at(longest.startLine - 1, ["def edited_helper(x):", "    return x", ""]).join("\n"),
      ],
      // Its occurrence is counted again: the longest (and any after it) become `name#2`.
      [
        "a redefinition of the longest before it",
        at(longest.startLine - 1, [`def ${longest.name}(*args):`, "    pass", ""]).join("\n"),
      ],
      ["a comment line inside the longest function", at(longest.endLine - 1, [`${indent}# edited`]).join("\n")],
    );
  }
  const statements = report.imports.length + report.variables.length + report.otherStatements.length;
  if (statements > 0) {
    const second = Math.min(lines.length, (report.moduleDocstringSpan?.endLine ?? 0) + 1);
    edits.push(
      ["an import after the first statement", insertAt(lines, second, ["import edited_module"]).join("\n")],
      // A new statement on an existing statement's row: the row is analyzed afresh.
      [
        "a statement put before another on its row",
        lines.map((line, i) => (i === firstStatementRow(report) ? `edited = 1; ${line}` : line)).join("\n"),
      ],
    );
  }
  return edits;
}

function insertAt(lines: string[], line: number, inserted: string[]): string[] {
  return [...lines.slice(0, line), ...inserted, ...lines.slice(line)];
}

/** The 0-based row of the first module-level import, assignment or other statement after the docstring. */
function firstStatementRow(report: AstReport): number {
  const rows = [...report.imports, ...report.variables, ...report.otherStatements].map((s) => s.line - 1);
  return Math.min(...rows);
}

function sameAsFresh(dir: string, files: string[]): void {
  /** How many edits of each kind the splice took (the rest were analyzed whole). */
  const splices = new Map<string, number>();
  // The grammar and the CPython helper start here, not in the first file's time limit.
  beforeAll(() => analyzePython("x = 1\n"), 60_000);
  it.each(files)("%s", async (file) => {
    const original = fs.readFileSync(path.join(dir, file), "utf8");
    const report = await analyzePython(original);
    const cache = new ReportCache();
    const originalSource = decodePythonText(original);
    await analyzeDecodedCached(originalSource, cache);
    const baseKey = ReportCache.keyOf(originalSource);
    // The cache keeps trees without errors; parsePythonEdited takes any (it is tried on both).
    const kept = cache.tree(baseKey);
    expect(kept === undefined, "the tree is kept when it has no errors").toBe(
      !report.parses || !!report.structureErrors,
    );
    const base = kept ?? { text: originalSource.text, tree: await parsePython(originalSource.text) };
    expect(base.text).toBe(originalSource.text);
    for (const [edit, modified] of editsOf(original, report)) {
      const text = decodePythonText(modified).text;
      const [fresh, edited] = [await parsePython(text), await parsePythonEdited(text, base)];
      try {
        expect(dump(edited), edit).toBe(dump(fresh));
      } finally {
        fresh.delete();
        edited.delete();
      }
      const decoded = decodePythonText(modified);
      const reused = await analyzeDecoded(decoded, { cache, baseKey });
      const freshReport = await analyzeDecoded(decoded);
      expect(JSON.stringify(reused), edit).toBe(JSON.stringify(freshReport));
      // The splice itself, where it applies: the fresh report's structure, byte for byte.
      if (kept && freshReport.parses && !freshReport.structureErrors) {
        const spliced = await spliceAgainst(cache, baseKey, text);
        splices.set(edit, (splices.get(edit) ?? 0) + (spliced ? 1 : 0));
        if (spliced) expect(JSON.stringify(spliced), edit).toBe(structureOf(freshReport));
      }
    }
    if (!kept) base.tree.delete();
  });
  it("splices edits after the first statement, never one before it", () => {
    if (files.length < 5) return;
    for (const edit of [
      "a comment line at the end",
      "the longest function renamed",
      "a redefinition of the longest before it",
    ]) {
      expect(splices.get(edit), edit).toBeGreaterThan(files.length / 2);
    }
    expect(splices.get("a comment line at the top")).toBe(0);
  });
}

describe("editBetween", () => {
  it("is the span between the common prefix and suffix, in rows and UTF-16 columns", () => {
    expect(editBetween("a = 1\nb = 2\n", "a = 1\nb = 23\n")).toMatchObject({
      startIndex: 11,
      oldEndIndex: 11,
      newEndIndex: 12,
      startPosition: { row: 1, column: 5 },
      oldEndPosition: { row: 1, column: 5 },
      newEndPosition: { row: 1, column: 6 },
    });
    expect(editBetween("x\n", "x\n# one\n# two\n")).toMatchObject({
      startIndex: 2,
      newEndIndex: 14,
      newEndPosition: { row: 3, column: 0 },
    });
    // Never inside a surrogate pair: the edit takes the whole character.
    expect(editBetween("s = '\u{1F600}'", "s = '\u{1F601}'")).toMatchObject({ startIndex: 5, oldEndIndex: 7 });
  });

  it("handles a text that repeats around the edit", () => {
    expect(editBetween("aa", "aaa")).toMatchObject({ startIndex: 2, oldEndIndex: 2, newEndIndex: 3 });
    expect(editBetween("abc", "")).toMatchObject({ startIndex: 0, oldEndIndex: 3, newEndIndex: 0 });
  });
});

const SAMPLE = "data/sample-corpus/Source_Code";

describe("analysis reused from the original, on the sample corpus", () => {
  sameAsFresh(SAMPLE, pythonFilesOf(SAMPLE));
});

describeWithTestData("analysis reused from the original, on the DevEval repositories", "deveval/Source_Code", (dir) => {
  sameAsFresh(dir, fs.existsSync(dir) ? pythonFilesOf(dir) : ["every .py file"]);
});
