/**
 * CPython's verdict on an edited file, asking it to compile only what the edit touched.
 *
 * An agent's version of a file is nearly always its original with a few definitions changed. When
 * the original compiles, its text before and after the edit (the common prefix and suffix) compiled
 * as part of it; what is left to check is the chunk between: the whole top-level statements the
 * edit touches (their lines), or the edited lines themselves when they lie between statements. The
 * chunk starts where CPython's tokenizer starts a fresh logical line at column 0 (tree-sitter's
 * tree of the original has no errors and puts a top-level statement, or nothing but comments and
 * blank lines, there), so compiled alone it is read as it is read in the file; and a chunk that
 * compiles alone ends the same way, so the unchanged rest is read as before.
 *
 * What the module scope shares between statements is left to the whole file: a `global` statement
 * at module level (an assignment before it is an error), `from __future__` imports (they must
 * come first, and they change how the rest compiles: the original's are put before the chunk), and
 * a line continuation (`\`) into the chunk. A chunk that does not compile is not the answer either:
 * the whole file is compiled then, for CPython's own message and position. (Only the first two
 * lines could hold a coding declaration; CPython ignores it in a text it is given as a string,
 * which is how the helper compiles.)
 *
 * lib/analysis/compile-edit.test.ts checks the chunked verdict against the whole file's on real
 * files under many kinds of edit.
 */
import type { Tree } from "web-tree-sitter";
import { compileCheck, type CompileVerdict } from "./cpython-check";
import { editBetween } from "./python-parser";

/** What an edit of a source CPython compiles needs of it to be checked by chunk. */
export interface CompiledBase {
  text: string;
  /** The top-level statements' first and last rows (0-based), in order; comments are not statements. */
  statements: readonly { startRow: number; endRow: number }[];
  /** The end (index) of the last `from __future__` import's line, or 0 when there is none. */
  futureEnd: number;
  /** A `global` statement at module level: the whole file is compiled. */
  hasModuleGlobal: boolean;
}

/** The base of a source CPython compiled and tree-sitter read without an error (`tree`). */
export function compiledBaseOf(tree: Tree, text: string): CompiledBase {
  const statements: { startRow: number; endRow: number }[] = [];
  let futureEnd = 0;
  let hasModuleGlobal = false;
  for (const node of tree.rootNode.namedChildren) {
    if (!node || node.type === "comment") continue;
    statements.push({ startRow: node.startPosition.row, endRow: node.endPosition.row });
    if (node.type === "future_import_statement") futureEnd = lineEnd(text, node.endIndex);
    if (node.type === "global_statement") hasModuleGlobal = true;
  }
  return { text, statements, futureEnd, hasModuleGlobal };
}

/**
 * The text CPython is asked to compile for `source`, an edit of `base`: the changed chunk (after
 * the original's `__future__` imports, if any), or null when only the whole file will do.
 */
export function changedChunk(base: CompiledBase, source: string): string | null {
  const before = base.text;
  if (base.hasModuleGlobal) return null;
  if (before === source) return "";
  const edit = editBetween(before, source);
  const firstRow = edit.startPosition.row;
  const lastRow = edit.oldEndPosition.row;
  let fromRow = firstRow;
  let toRow = lastRow;
  for (const statement of base.statements) {
    if (statement.startRow > lastRow) break;
    if (statement.endRow < firstRow) continue;
    fromRow = Math.min(fromRow, statement.startRow);
    toRow = Math.max(toRow, statement.endRow);
  }
  const from = rowStart(before, fromRow);
  if (from < base.futureEnd) return null;
  // A line continuation into the chunk joins it to the line before it.
  if (from > 0 && before.charCodeAt(from - 2) === BACKSLASH) return null;
  const to = lineEnd(before, rowStart(before, toRow));
  const chunk = source.slice(from, to + source.length - before.length);
  if (MODULE_GLOBAL_OR_FUTURE.test(chunk)) return null;
  return base.futureEnd > 0 ? `${before.slice(0, base.futureEnd)}${chunk}` : chunk;
}

const BACKSLASH = 0x5c;
/** A `global` statement that may be at module level, or a `__future__` import: the whole file decides. */
const MODULE_GLOBAL_OR_FUTURE = /^global\b|;\s*global\b|__future__/m;

/** CPython's verdict on `source`, compiling only the chunk an edit of `base` changed when that settles it. */
export async function compileCheckEdited(source: string, base: CompiledBase | null): Promise<CompileVerdict> {
  const chunk = base ? changedChunk(base, source) : null;
  if (chunk === null) return compileCheck(source);
  const verdict = await compileCheck(chunk);
  return verdict.ok ? verdict : compileCheck(source);
}

/** Where row `row` (0-based) of `text` starts. */
function rowStart(text: string, row: number): number {
  let at = 0;
  for (let r = 0; r < row; r++) {
    const newline = text.indexOf("\n", at);
    if (newline < 0) return text.length;
    at = newline + 1;
  }
  return at;
}

/** The end of the line holding `index`, after its newline (or the end of the text). */
function lineEnd(text: string, index: number): number {
  const newline = text.indexOf("\n", index);
  return newline < 0 ? text.length : newline + 1;
}
