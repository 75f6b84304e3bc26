/**
 * One tree-sitter Python parser per process (web-tree-sitter + the grammar's bundled .wasm: no
 * compiler, no network). Everything that reads Python goes through `parsePython`.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { Language, Parser, type Node, type Tree } from "web-tree-sitter";

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
