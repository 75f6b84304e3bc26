/**
 * Python string literals: their prefix and value, so that `'a'`, `"a"` and `"""a"""` compare equal
 * and a docstring can be reported by what it says rather than how it is quoted.
 */
import type { Node } from "web-tree-sitter";

export interface StringParts {
  /** Lowercased prefix letters without `u` (which changes nothing in Python 3): "", "r", "b", "rb", "f", ... */
  prefix: string;
  isBytes: boolean;
  isRaw: boolean;
  /** f-strings and t-strings: their value depends on the interpolations. */
  isTemplate: boolean;
  /** The text between the quotes, as written. */
  body: string;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

const ESCAPE = /\\(\r\n|\n|[\\'"abfnrtv]|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/g;

/** Python's escape processing for a non-raw literal; unknown escapes (`\d`, `\N{...}`) stay as written. */
export function decodeEscapes(body: string, isBytes: boolean): string {
  return body.replace(ESCAPE, (match, code: string) => {
    if (code === "\n" || code === "\r\n") return "";
    const simple = SIMPLE_ESCAPES[code];
    if (simple !== undefined) return simple;
    const head = code[0];
    if (head === "x") return String.fromCharCode(parseInt(code.slice(1), 16));
    if (head === "u" || head === "U") {
      if (isBytes) return match;
      const point = parseInt(code.slice(1), 16);
      return point <= 0x10ffff ? String.fromCodePoint(point) : match;
    }
    return String.fromCharCode(parseInt(code, 8) & (isBytes ? 0xff : 0x1ff));
  });
}

/** Splits a `string` node's text into prefix, quotes and body (the quotes may be missing in broken code). */
export function stringParts(node: Node): StringParts {
  const text = node.text;
  const prefixMatch = /^[A-Za-z]*/.exec(text);
  const rawPrefix = (prefixMatch?.[0] ?? "").toLowerCase();
  const rest = text.slice(rawPrefix.length);
  const quote = rest.startsWith('"""') || rest.startsWith("'''") ? rest.slice(0, 3) : rest.slice(0, 1);
  const closed = rest.length >= quote.length * 2 && rest.endsWith(quote);
  const body = rest.slice(quote.length, closed ? rest.length - quote.length : rest.length);
  const prefix = [...rawPrefix]
    .filter((c) => c !== "u")
    .sort()
    .join("");
  return {
    prefix,
    isBytes: prefix.includes("b"),
    isRaw: prefix.includes("r"),
    isTemplate: prefix.includes("f") || prefix.includes("t"),
    body,
  };
}

/** The value of a plain (non-template) string node. */
export function plainStringValue(parts: StringParts): string {
  return parts.isRaw ? parts.body : decodeEscapes(parts.body, parts.isBytes);
}

/** The value of a docstring node (`string` or `concatenated_string` of plain str literals), else null. */
export function docstringValue(node: Node): string | null {
  const pieces = node.type === "concatenated_string" ? node.namedChildren : [node];
  let value = "";
  for (const piece of pieces) {
    if (piece?.type !== "string") return null;
    const parts = stringParts(piece);
    if (parts.isBytes || parts.isTemplate) return null;
    value += plainStringValue(parts);
  }
  return value;
}

/**
 * `inspect.cleandoc`, then whitespace runs collapsed: a requirement re-indented, re-wrapped or
 * saved with other line endings says the same thing.
 */
export function normalizeDocstring(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

/** `inspect.cleandoc`: tabs expanded, common indentation of lines after the first removed, blank edges dropped. */
export function cleandoc(value: string): string {
  const lines = value
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => expandTabs(line));
  let margin = Infinity;
  for (const line of lines.slice(1)) {
    const content = line.trimStart();
    if (content) margin = Math.min(margin, line.length - content.length);
  }
  const out = lines.map((line, i) => (i === 0 ? line.trim() : Number.isFinite(margin) ? line.slice(margin) : line));
  while (out.length > 0 && out[0]?.trim() === "") out.shift();
  while (out.length > 0 && out.at(-1)?.trim() === "") out.pop();
  return out.map((line) => line.trimEnd()).join("\n");
}

export const leadingWhitespace = (line: string) => /^[ \t\f]*/.exec(line)?.[0] ?? "";

export function expandTabs(line: string, size = 8): string {
  if (!line.includes("\t")) return line;
  let out = "";
  for (const c of line) out += c === "\t" ? " ".repeat(size - (out.length % size)) : c;
  return out;
}

/** `line` without `width` columns of leading whitespace (tabs counted to multiples of 8). */
export function removeIndent(line: string, width: number): string {
  let removed = 0;
  let i = 0;
  while (i < line.length && removed < width && (line[i] === " " || line[i] === "\t")) {
    removed = line[i] === "\t" ? removed + 8 - (removed % 8) : removed + 1;
    i += 1;
  }
  return line.slice(i);
}
