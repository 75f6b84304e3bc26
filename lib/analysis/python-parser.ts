/**
 * One tree-sitter Python parser per process (web-tree-sitter + the grammar's bundled .wasm: no
 * compiler, no network). Everything that reads Python goes through `parsePython`.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { Edit, Language, Parser, type Node, type Point, type Tree } from "web-tree-sitter";
import type { StatementExtent } from "./report-splice";

let parserPromise: Promise<Parser> | null = null;
let wasmDir: string | null = null;

/** The two .wasm files each package ships, as a bundle built without node_modules copies them. */
export const PYTHON_PARSER_WASM = {
  runtime: { module: "web-tree-sitter/web-tree-sitter.wasm", file: "web-tree-sitter.wasm" },
  grammar: { module: "tree-sitter-python/tree-sitter-python.wasm", file: "tree-sitter-python.wasm" },
} as const;

/**
 * Loads both .wasm files from `dir` instead of node_modules: for a self-contained bundle of code
 * that parses Python (the Code-KIT MCP server), which keeps them beside itself. Call before the
 * first parse.
 */
export function loadPythonWasmFrom(dir: string): void {
  wasmDir = dir;
}

async function createParser(): Promise<Parser> {
  let grammar: string;
  if (wasmDir !== null) {
    const dir = wasmDir;
    // A folder known only at run time (the bundle's own): not for Next's file tracing to follow.
    await Parser.init({ locateFile: (name: string) => path.join(/* turbopackIgnore: true */ dir, name) });
    grammar = path.join(/* turbopackIgnore: true */ dir, PYTHON_PARSER_WASM.grammar.file);
  } else {
    await Parser.init();
    // Resolved by Node at run time, never by Next's bundler: it would compile the .wasm as a
    // WebAssembly module of its own (and fail on its imports).
    grammar = createRequire(import.meta.url).resolve(
      /* turbopackIgnore: true */ "tree-sitter-python/tree-sitter-python.wasm",
    );
  }
  const language = await Language.load(grammar);
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/** Loads the grammar once; call (and await) before `parsePython`. */
export function loadPythonParser(): Promise<Parser> {
  parserPromise ??= createParser();
  return parserPromise;
}

export async function parsePython(source: string): Promise<Tree> {
  const parser = await loadPythonParser();
  const tree = parser.parse(source);
  if (!tree) throw new Error("tree-sitter returned no tree");
  return tree;
}

/** A source and its tree: the start of an incremental parse of an edited version of it. */
export interface ParsedSource {
  text: string;
  tree: Tree;
  /** Its top-level statements (report-splice.ts), once an edit of it asked for them. */
  statements?: readonly StatementExtent[];
}

/**
 * `parsePython(source)` reusing the tree of a previous version of it: the edit that turns
 * `previous.text` into `source` (everything between their common prefix and suffix) is applied to a
 * copy of its tree, and tree-sitter parses again only what the edit touched. A tree with errors is
 * parsed afresh: error recovery, not the grammar, decides its shape, and it may go another way.
 * `previous.tree` is copied at once (synchronously), never changed.
 */
export async function parsePythonEdited(source: string, previous: ParsedSource): Promise<Tree> {
  // A copy first, before any await: the caller's tree may be deleted once this function waits.
  const old = previous.tree.copy();
  let tree: Tree | null;
  try {
    old.edit(editBetween(previous.text, source));
    tree = (await loadPythonParser()).parse(source, old);
  } finally {
    old.delete();
  }
  if (tree && !tree.rootNode.hasError) return tree;
  tree?.delete();
  return parsePython(source);
}

/** The last edit found: an edit is asked for by its compile (compile-edit.ts), its parse and its report (report-splice.ts). */
let lastEdit: { before: string; after: string; edit: Edit } | null = null;

/** The one edit from `before` to `after`: what lies between their common prefix and common suffix. */
export function editBetween(before: string, after: string): Edit {
  if (lastEdit?.before === before && lastEdit.after === after) return lastEdit.edit;
  const edit = findEdit(before, after);
  lastEdit = { before, after, edit };
  return edit;
}

function findEdit(before: string, after: string): Edit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (
    tail < shorter - start &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  ) {
    tail++;
  }
  // Never between the halves of a surrogate pair: the edit covers whole characters.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  if (tail > 0 && isLowSurrogate(before.charCodeAt(before.length - tail))) tail--;
  const startPosition = pointAt(before, start, { row: 0, column: 0 }, 0);
  return new Edit({
    startIndex: start,
    oldEndIndex: before.length - tail,
    newEndIndex: after.length - tail,
    startPosition,
    oldEndPosition: pointAt(before, before.length - tail, startPosition, start),
    newEndPosition: pointAt(after, after.length - tail, startPosition, start),
  });
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Row and column (UTF-16 code units, as web-tree-sitter counts them) of `index`, counted on from `from` at `fromIndex`. */
function pointAt(text: string, index: number, from: Point, fromIndex: number): Point {
  let { row } = from;
  let lineStart = fromIndex - from.column;
  for (let i = text.indexOf("\n", fromIndex); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

/** The first syntax error of a tree (1-based line and column), or null when it parses. */
export function firstSyntaxError(tree: Tree): { line: number; column: number; text: string } | null {
  if (!tree.rootNode.hasError) return null;
  let found: Node | null = null;
  const visit = (node: Node) => {
    if (found) return;
    if (node.type === "ERROR" || node.isMissing) {
      found = node;
      return;
    }
    for (const child of node.children) if (child?.hasError || child?.isMissing) visit(child);
  };
  visit(tree.rootNode);
  const node = found as Node | null;
  if (!node) return { line: 1, column: 1, text: "" };
  return { line: node.startPosition.row + 1, column: node.startPosition.column + 1, text: node.text.slice(0, 80) };
}
