/**
 * Definitions of a source that does not parse, read from tree-sitter's tokens by indentation:
 * tokens grouped into logical lines (open brackets and backslashes continue a line; a string is
 * one token however many lines it spans), and each `def`/`class` line owning the deeper lines
 * after it and the decorator lines before it at its own indentation.
 */
import type { Tree } from "web-tree-sitter";
import { expandTabs, leadingWhitespace } from "./python-strings";

/** Where a definition is and what it spans: what the run page and snippet merging need. */
export interface DefinitionOutline {
  kind: "function" | "method" | "class";
  name: string;
  qualifiedName: string;
  /** First decorator line, else the `def`/`class` line (1-based). */
  startLine: number;
  defLine: number;
  /** Last line of code (trailing comments left out). */
  endLine: number;
  /** Leading whitespace of the `def`/`class` line, as written. */
  indent: string;
}

interface Token {
  type: string;
  text: string;
  row: number;
  endRow: number;
}

interface LogicalLine {
  /** 0-based physical rows. */
  startRow: number;
  endRow: number;
  /** Indentation width of the first row (tabs to multiples of 8). */
  width: number;
  /** The first three tokens: enough to read `async def name` and `@`. */
  head: Token[];
}

const OPEN = new Set(["(", "[", "{"]);
const CLOSE = new Set([")", "]", "}"]);

/** Leaves of the tree in order, strings whole, zero-width (missing) tokens left out. */
function tokensOf(tree: Tree): Token[] {
  const tokens: Token[] = [];
  const cursor = tree.walk();
  try {
    let descending = true;
    for (;;) {
      const atom = cursor.nodeType === "string" || cursor.nodeType === "comment";
      if (descending && !atom && cursor.gotoFirstChild()) continue;
      if (descending && cursor.endIndex > cursor.startIndex) {
        const end = cursor.endPosition;
        tokens.push({
          type: cursor.nodeType,
          text: cursor.nodeType === "identifier" ? cursor.nodeText : "",
          row: cursor.startPosition.row,
          // A token ending at column 0 (a string's trailing newline) ends on the row before.
          endRow: end.column === 0 && end.row > cursor.startPosition.row ? end.row - 1 : end.row,
        });
      }
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descending = false;
    }
  } finally {
    cursor.delete();
  }
  return tokens;
}

function logicalLines(tree: Tree, lines: readonly string[]): LogicalLine[] {
  const found: LogicalLine[] = [];
  const commentRows = new Set<number>();
  let current: LogicalLine | null = null;
  let depth = 0;
  const continues = (row: number) => /\\\r?$/.test(lines[row] ?? "") && !commentRows.has(row);
  for (const token of tokensOf(tree)) {
    if (token.type === "comment") {
      commentRows.add(token.row);
      continue;
    }
    if (!current || (token.row > current.endRow && depth === 0 && !continues(current.endRow))) {
      const indent = leadingWhitespace(lines[token.row] ?? "");
      current = { startRow: token.row, endRow: token.endRow, width: expandTabs(indent).length, head: [] };
      found.push(current);
    }
    current.endRow = Math.max(current.endRow, token.endRow);
    if (current.head.length < 3) current.head.push(token);
    if (OPEN.has(token.type)) depth += 1;
    else if (CLOSE.has(token.type)) depth = Math.max(0, depth - 1);
  }
  return found;
}

/** `def`/`class` and the name a logical line opens, or null. */
function opens(line: LogicalLine): { kind: "def" | "class"; name: string } | null {
  const [first, second, third] = line.head;
  const keyword = first?.type === "async" ? second : first;
  const name = first?.type === "async" ? third : second;
  if ((keyword?.type !== "def" && keyword?.type !== "class") || name?.type !== "identifier") return null;
  return { kind: keyword.type, name: name.text };
}

export function recoverDefinitions(tree: Tree, lines: readonly string[]): DefinitionOutline[] {
  const logical = logicalLines(tree, lines);
  const found: DefinitionOutline[] = [];
  const stack: { name: string; width: number; kind: "def" | "class" }[] = [];
  logical.forEach((line, i) => {
    while (stack.length > 0 && stack.at(-1)!.width >= line.width) stack.pop();
    const opened = opens(line);
    if (!opened) return;
    const inFunction = stack.some((s) => s.kind === "def");
    const inClass = stack.at(-1)?.kind === "class";
    stack.push({ name: opened.name, width: line.width, kind: opened.kind });
    // A function's own definitions are part of its body, as in the parsed model.
    if (inFunction) return;
    let startRow = line.startRow;
    for (let j = i - 1; j >= 0; j--) {
      const previous = logical[j]!;
      if (previous.width !== line.width || previous.head[0]?.type !== "@") break;
      startRow = previous.startRow;
    }
    let endRow = line.endRow;
    for (let j = i + 1; j < logical.length && logical[j]!.width > line.width; j++) endRow = logical[j]!.endRow;
    found.push({
      kind: opened.kind === "class" ? "class" : inClass ? "method" : "function",
      name: opened.name,
      qualifiedName: [...stack.slice(0, -1).map((s) => s.name), opened.name].join("."),
      startLine: startRow + 1,
      defLine: line.startRow + 1,
      endLine: endRow + 1,
      indent: leadingWhitespace(lines[line.startRow] ?? ""),
    });
  });
  return found;
}
