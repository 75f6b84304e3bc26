/**
 * The report of an edited file made from its original's report: only the top-level statements
 * the edit touched are analyzed, the others' entries are the original's (lines moved past the
 * edit). An agent's version of a file is nearly always its original with a few definitions
 * changed, and reading every definition of its tree again was most of the time an edit took.
 *
 * A top-level statement is kept when it lies wholly before the edit (or wholly after it) and both
 * trees have it with the same type and extent (shifted by the edit past it): its text is then the
 * same, at the same place in its line, and in trees without errors the same text there parses to
 * the same subtree (the premise report-definitions.ts's memo rests on). What a report says of a
 * top-level statement depends on that statement alone, except:
 * - the module docstring is the first statement: the first statement must be kept;
 * - occurrences (`name#2`) count definitions of a qualified name across the module: recounted;
 * - lines: the kept statements after the edit move by the rows it added or removed.
 * Kept and analyzed statements must not share a row (`a = 1; b = 2`): entries are sorted by line.
 *
 * When any of this does not hold (an error in either tree, the first statement edited), the caller
 * analyzes the whole file. lib/analysis/analysis-reuse.test.ts checks the result against a fresh
 * analysis, byte for byte, on real files under many kinds of edit.
 */
import type { Node, Tree } from "web-tree-sitter";
import { editBetween } from "./python-parser";
import { occurrenceCounter, occurrenceKey } from "./python-definitions";
import { sortStatements } from "./python-scope";
import { definitionEntriesIn, placeClass, placeFunction, shiftLines, type DefinitionMemo } from "./report-definitions";
import type { AstReport, ClassEntry, FunctionEntry } from "./schema";

/** Where a top-level statement (not a comment) lies: rows 0-based, `endRow` its last line's. */
export interface StatementExtent {
  type: string;
  startIndex: number;
  endIndex: number;
  startRow: number;
  startColumn: number;
  endRow: number;
}

/** The top-level statements of a tree, comments left out (they give no entry). */
export function topLevelStatements(tree: Tree): Node[] {
  return tree.rootNode.namedChildren.filter((n): n is Node => n !== null && n.type !== "comment");
}

export function extentOf(node: Node): StatementExtent {
  const start = node.startPosition;
  const end = node.endPosition;
  return {
    type: node.type,
    startIndex: node.startIndex,
    endIndex: node.endIndex,
    startRow: start.row,
    startColumn: start.column,
    // A node ending at column 0 ends on the line before (as python-scope.ts's endLine).
    endRow: end.column === 0 && end.row > start.row ? end.row - 1 : end.row,
  };
}

/** What a spliced report holds: everything but what CPython's verdict and the decoding decide. */
export type SplicedReport = Omit<AstReport, "parses" | "errors" | "structureErrors" | "encodingError" | "hasBom">;

export interface SpliceInput {
  /** The original's report: it parsed, tree-sitter read it whole, no encoding error. */
  base: AstReport;
  baseText: string;
  /** The original's top-level statements (extentOf). */
  baseStatements: readonly StatementExtent[];
  text: string;
  /** The edited text's tree, without errors. */
  tree: Tree;
  memo: DefinitionMemo | null;
}

/** The edited file's report from its original's (see the module comment), or null: analyze it whole. */
export function spliceReport({ base, baseText, baseStatements, text, tree, memo }: SpliceInput): SplicedReport | null {
  if (!base.parses || base.structureErrors || base.encodingError || tree.rootNode.hasError) return null;
  const nodes = topLevelStatements(tree);
  const now = nodes.map(extentOf);
  const before = baseStatements;
  const edit = editBetween(baseText, text);
  const indexShift = edit.newEndIndex - edit.oldEndIndex;
  const rowShift = edit.newEndPosition.row - edit.oldEndPosition.row;
  const most = Math.min(before.length, now.length);
  let prefix = 0;
  while (prefix < most && now[prefix]!.endIndex < edit.startIndex && sameExtent(before[prefix]!, now[prefix]!, 0, 0)) {
    prefix++;
  }
  // The first statement is the module docstring, or decides there is none.
  if (prefix === 0) return null;
  let suffix = 0;
  while (suffix < most - prefix) {
    const old = before[before.length - 1 - suffix]!;
    if (old.startIndex < edit.oldEndIndex || !sameExtent(old, now[now.length - 1 - suffix]!, indexShift, rowShift)) {
      break;
    }
    suffix++;
  }
  if (!rowsApart(before, prefix, suffix) || !rowsApart(now, prefix, suffix)) return null;

  const lastKeptRow = before[prefix - 1]!.endRow;
  const firstMovedRow = suffix > 0 ? before[before.length - suffix]!.startRow : Number.POSITIVE_INFINITY;
  const placeOf = (line: number): "before" | "edited" | "after" =>
    line - 1 <= lastKeptRow ? "before" : line - 1 >= firstMovedRow ? "after" : "edited";
  /** The original's items before the edit, the edited statements' items, the original's items after it (moved). */
  const merge = <T extends { line: number; endLine: number }>(old: readonly T[], edited: T[], copy: (item: T) => T) => [
    ...old.filter((item) => placeOf(item.line) === "before").map(copy),
    ...edited,
    ...old.filter((item) => placeOf(item.line) === "after").map((item) => shiftLines(copy(item), rowShift)),
  ];

  const edited = nodes.slice(prefix, nodes.length - suffix);
  const definitions = definitionEntriesIn(edited, text, memo);
  const contents = { imports: [] as AstReport["imports"], variables: [] as AstReport["variables"], statements: [] };
  sortStatements(edited, text, true, contents);
  return {
    version: 1,
    lineCount: text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0),
    moduleDocstring: base.moduleDocstring,
    moduleDocstringSpan: base.moduleDocstringSpan ? { ...base.moduleDocstringSpan } : null,
    imports: merge(base.imports, contents.imports, (i) => ({ ...i, names: i.names.map((n) => ({ ...n })) })),
    classes: recount(spliceDefinitions(base.classes, definitions.classes, placeOf, rowShift), true),
    functions: recount(spliceDefinitions(base.functions, definitions.functions, placeOf, rowShift), false),
    variables: merge(base.variables, contents.variables, (v) => ({ ...v, names: [...v.names] })),
    otherStatements: merge(base.otherStatements, contents.statements, (s) => ({ ...s })),
  };
}

/** Same type and extent, `after` moved by the edit's shift of indices and rows. */
function sameExtent(before: StatementExtent, after: StatementExtent, indexShift: number, rowShift: number): boolean {
  return (
    before.type === after.type &&
    before.startIndex + indexShift === after.startIndex &&
    before.endIndex + indexShift === after.endIndex &&
    before.startRow + rowShift === after.startRow &&
    before.endRow + rowShift === after.endRow &&
    before.startColumn === after.startColumn
  );
}

/** Whether the kept statements and the edited ones (or each other, when none is) have no row in common. */
function rowsApart(statements: readonly StatementExtent[], prefix: number, suffix: number): boolean {
  const firstMoved = statements.length - suffix;
  const apart = (a: number, b: number) => statements[a]!.endRow < statements[b]!.startRow;
  if (prefix < statements.length && !apart(prefix - 1, prefix)) return false;
  return suffix === 0 || firstMoved === 0 || apart(firstMoved - 1, firstMoved);
}

type Definition = FunctionEntry | ClassEntry;

/** The original's definitions before the edit, the edited statements', the original's after it (moved). */
function spliceDefinitions<T extends Definition>(
  old: readonly T[],
  edited: T[],
  placeOf: (line: number) => "before" | "edited" | "after",
  rowShift: number,
): { entry: T; by: number }[] {
  return [
    ...old.filter((d) => placeOf(d.startLine) === "before").map((entry) => ({ entry, by: 0 })),
    ...edited.map((entry) => ({ entry, by: 0 })),
    ...old.filter((d) => placeOf(d.startLine) === "after").map((entry) => ({ entry, by: rowShift })),
  ];
}

/** New entries, lines moved, occurrences counted across the module again (in source order). */
function recount<T extends Definition>(entries: { entry: T; by: number }[], isClass: boolean): T[] {
  const occurrence = occurrenceCounter();
  return entries.map(({ entry, by }) => {
    const context = {
      qualifiedName: entry.qualifiedName,
      occurrence: occurrence(occurrenceKey(isClass, entry.qualifiedName)),
      inBlock: entry.inBlock,
    };
    return (
      isClass
        ? placeClass(entry as ClassEntry, context, by)
        : placeFunction(entry as FunctionEntry, { ...context, kind: (entry as FunctionEntry).kind }, by)
    ) as T;
  });
}
