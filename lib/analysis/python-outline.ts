/**
 * A synchronous outline of a Python source: logical lines (brackets, strings, comments and
 * backslash continuations followed) and the `def`/`class` definitions they open, with spans.
 * For callers that cannot wait for the tree-sitter grammar to load (snippet merging); everything
 * else reads Python through `parsePython`.
 */
import { expandTabs } from "./python-strings";

export interface LogicalLine {
  /** 1-based physical lines. */
  startLine: number;
  endLine: number;
  /** Leading whitespace of the first physical line, as written. */
  indent: string;
  /** Indentation width (tabs to multiples of 8). */
  width: number;
  /** The first physical line without its indentation. */
  head: string;
}

export function logicalLines(source: string): LogicalLine[] {
  const text = source.replace(/\r\n?/g, "\n");
  const physical = text.split("\n");
  const lines: LogicalLine[] = [];
  let line = 1;
  let depth = 0;
  let quote: string | null = null;
  let current: LogicalLine | null = null;
  let atLineStart = true;
  let commentEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      if (quote && quote.length === 1) quote = null; // an unterminated one-line string ends here
      const continued = (text[i - 1] === "\\" && commentEnd !== i) || depth > 0 || quote !== null;
      if (current && !continued) {
        current.endLine = line;
        lines.push(current);
        current = null;
      }
      line += 1;
      atLineStart = !current;
      continue;
    }
    if (quote) {
      if (c === "\\" && text[i + 1] === "\n") {
        line += 1; // an escaped newline inside a string
        i += 1;
      } else if (c === "\\") i += 1;
      else if (text.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = null;
      }
      continue;
    }
    if (atLineStart && (c === " " || c === "\t" || c === "\f")) continue;
    if (c === "#") {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
      commentEnd = i + 1;
      continue;
    }
    if (atLineStart) {
      const physicalLine = physical[line - 1] ?? "";
      const indent = /^[ \t\f]*/.exec(physicalLine)?.[0] ?? "";
      current = {
        startLine: line,
        endLine: line,
        indent,
        width: expandTabs(indent).length,
        head: physicalLine.slice(indent.length),
      };
      atLineStart = false;
    }
    if (c === '"' || c === "'") quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
    if (quote && quote.length === 3) i += 2;
    else if ("([{".includes(c)) depth += 1;
    else if (")]}".includes(c)) depth = Math.max(0, depth - 1);
  }
  if (current) {
    current.endLine = line;
    lines.push(current);
  }
  return lines;
}

export interface OutlineDefinition {
  kind: "def" | "class";
  name: string;
  /** Enclosing classes and functions joined by dots (`Outer.Inner.method`). */
  qualifiedName: string;
  /** First decorator line, else the `def`/`class` line (1-based). */
  startLine: number;
  defLine: number;
  endLine: number;
  /** Indentation of the definition, as written. */
  indent: string;
}

const DEFINITION = /^(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)/;

export function outlineDefinitions(source: string): OutlineDefinition[] {
  const lines = logicalLines(source);
  const found: OutlineDefinition[] = [];
  const stack: { name: string; width: number }[] = [];
  lines.forEach((logical, i) => {
    while (stack.length > 0 && stack.at(-1)!.width >= logical.width) stack.pop();
    const match = DEFINITION.exec(logical.head);
    if (!match) return;
    let startLine = logical.startLine;
    for (let j = i - 1; j >= 0; j--) {
      const previous = lines[j]!;
      if (previous.width !== logical.width || !previous.head.startsWith("@")) break;
      startLine = previous.startLine;
    }
    let endLine = logical.endLine;
    for (let j = i + 1; j < lines.length && lines[j]!.width > logical.width; j++) endLine = lines[j]!.endLine;
    const name = match[2]!;
    found.push({
      kind: match[1] === "class" ? "class" : "def",
      name,
      qualifiedName: [...stack.map((s) => s.name), name].join("."),
      startLine,
      defLine: logical.startLine,
      endLine,
      indent: logical.indent,
    });
    stack.push({ name, width: logical.width });
  });
  return found;
}
