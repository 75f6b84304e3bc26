/**
 * Normalized text of Python code: the tree's tokens minus comments, one statement per line,
 * indented four spaces per block level, tokens joined by single spaces (none inside brackets or
 * around `.`). What a formatter or an editor can change does not show: layout, comments, blank
 * lines, line continuations, trailing commas, redundant statement-level parentheses, quote style
 * and escapes of strings (they print as their value), case of number literals, CRLF, tabs.
 * What the interpreter sees does: statements moving in or out of a block change the indentation.
 */
import type { Node } from "web-tree-sitter";
import { plainStringValue, stringParts } from "./python-strings";

interface Token {
  text: string;
  glueLeft: boolean;
  glueRight: boolean;
}

class Writer {
  private readonly lines: { depth: number; tokens: Token[] }[] = [];

  line(depth: number): void {
    const last = this.lines.at(-1);
    if (last && last.tokens.length === 0) last.depth = depth;
    else this.lines.push({ depth, tokens: [] });
  }

  token(text: string, glueLeft = false, glueRight = false): void {
    if (this.lines.length === 0) this.line(0);
    this.lines.at(-1)!.tokens.push({ text, glueLeft, glueRight });
  }

  text(separator = "\n"): string {
    return this.lines
      .filter((l) => l.tokens.length > 0)
      .map((l) => (separator === "\n" ? "    ".repeat(l.depth) : "") + joinTokens(l.tokens))
      .join(separator);
  }
}

function joinTokens(tokens: Token[]): string {
  let out = "";
  let previous: Token | null = null;
  for (const token of tokens) {
    if (previous && !previous.glueRight && !token.glueLeft) out += " ";
    out += token.text;
    previous = token;
  }
  return out;
}

/** Nodes that open a line of their own at the depth of the statement they belong to. */
const LINE_STARTERS = new Set([
  "elif_clause",
  "else_clause",
  "except_clause",
  "except_group_clause",
  "finally_clause",
  "decorator",
  "function_definition",
  "class_definition",
]);

/** Parents under which `( expr )` means the same as `expr` (formatters add and drop these). */
const REDUNDANT_PAREN_PARENTS = new Set([
  "expression_statement",
  "return_statement",
  "assignment",
  "augmented_assignment",
  "argument_list",
  "keyword_argument",
  "if_statement",
  "elif_clause",
  "while_statement",
  "for_statement",
  "list",
  "set",
  "tuple",
  "expression_list",
  "pair",
  "default_parameter",
  "typed_default_parameter",
  "parenthesized_expression",
  "assert_statement",
  "raise_statement",
  "delete_statement",
  "lambda",
  "with_item",
]);

const SPLAT_PARENTS = new Set([
  "list_splat",
  "dictionary_splat",
  "list_splat_pattern",
  "dictionary_splat_pattern",
  "splat_pattern",
]);
const CLOSERS = new Set([")", "]", "}"]);

function isSkipped(node: Node): boolean {
  return node.type === "comment" || node.type === "line_continuation";
}

function glueOf(leaf: Node, parent: Node | null): [boolean, boolean] {
  const type = leaf.type;
  const parentType = parent?.type ?? "";
  switch (type) {
    case "(":
      return [
        parentType === "argument_list" ||
          parentType === "parameters" ||
          (parentType === "generator_expression" && parent?.parent?.type === "call"),
        true,
      ];
    case "[":
      return [parentType === "subscript" || parentType === "generic_type" || parentType === "type_parameter", true];
    case "{":
      return [false, true];
    case ")":
    case "]":
    case "}":
    case ",":
    case ";":
      return [true, false];
    case ":":
      return [true, parentType === "slice"];
    case ".":
      return [true, true];
    case "=":
      return parentType === "keyword_argument" || parentType === "default_parameter" ? [true, true] : [false, false];
    case "*":
    case "**":
      return [false, SPLAT_PARENTS.has(parentType)];
    case "-":
    case "+":
    case "~":
      return [false, parentType === "unary_operator"];
    case "@":
      return [false, parentType === "decorator"];
    case "type_conversion":
      return [true, false];
    default:
      return [false, false];
  }
}

/** The next child that is not a comment or continuation, after index `i`. */
function nextSignificant(children: (Node | null)[], i: number): Node | null {
  for (let j = i + 1; j < children.length; j++) {
    const child = children[j];
    if (child && !isSkipped(child)) return child;
  }
  return null;
}

function isDroppableTrailingComma(parent: Node, children: (Node | null)[], i: number): boolean {
  const next = nextSignificant(children, i);
  if (!next || !CLOSERS.has(next.type)) return false;
  if (parent.type === "subscript") return false;
  if (parent.type === "tuple" || parent.type === "tuple_pattern") {
    return parent.namedChildren.filter((c) => c && !isSkipped(c)).length > 1;
  }
  return true;
}

function isRedundantParen(node: Node): boolean {
  return REDUNDANT_PAREN_PARENTS.has(node.parent?.type ?? "");
}

/** A string literal as one token: its value (JSON-quoted), prefixed by `b` for bytes; f-strings keep their shape. */
function stringToken(node: Node, source: string): string {
  const parts = stringParts(node);
  if (!parts.isTemplate) return `${parts.isBytes ? "b" : ""}${JSON.stringify(plainStringValue(parts))}`;
  // f"..{expr!r:spec}..": literal pieces by value, interpolations normalized like any expression.
  const first = node.firstChild;
  const last = node.lastChild;
  let cursor = first?.type === "string_start" ? first.endIndex : node.startIndex;
  const bodyEnd = last?.type === "string_end" && last !== first ? last.startIndex : node.endIndex;
  let template = "";
  const literal = (end: number) => {
    const piece = source.slice(cursor, end);
    template += parts.isRaw ? piece : plainStringValue({ ...parts, isTemplate: false, body: piece });
  };
  for (const child of node.namedChildren) {
    if (!child || child.type !== "interpolation") continue;
    literal(child.startIndex);
    const writer = new Writer();
    visit(child, 0, writer, source);
    template += writer.text(" ");
    cursor = child.endIndex;
  }
  literal(bodyEnd);
  return `${parts.prefix.replace("r", "")}${JSON.stringify(template)}`;
}

function visit(node: Node, depth: number, writer: Writer, source: string): void {
  const type = node.type;
  if (isSkipped(node)) return;
  if (type === "block") {
    for (const child of node.namedChildren) {
      if (!child || isSkipped(child)) continue;
      writer.line(depth + 1);
      visit(child, depth + 1, writer, source);
    }
    return;
  }
  if (LINE_STARTERS.has(type)) writer.line(depth);
  if (type === "string") return writer.token(stringToken(node, source));
  if (type === "integer" || type === "float") return writer.token(node.text.toLowerCase());
  if (type === "dotted_name" || type === "relative_import") return writer.token(node.text.replace(/\s|\\/g, ""));
  if (type === "format_specifier") return writer.token(node.text, true, false);
  if (node.childCount === 0) {
    const [left, right] = glueOf(node, node.parent);
    return writer.token(node.text, left, right);
  }
  const dropParens = type === "parenthesized_expression" && isRedundantParen(node);
  const children = node.children;
  let cursor = node.startIndex;
  children.forEach((child, i) => {
    if (!child) return;
    if (child.startIndex > cursor) gapTokens(source.slice(cursor, child.startIndex), writer);
    cursor = Math.max(cursor, child.endIndex);
    if (isSkipped(child)) return;
    if (child.type === "," && isDroppableTrailingComma(node, children, i)) return;
    if ((dropParens || type === "import_from_statement") && (child.type === "(" || child.type === ")")) return;
    visit(child, depth, writer, source);
  });
  if (node.endIndex > cursor) gapTokens(source.slice(cursor, node.endIndex), writer);
}

/** Text a node covers but none of its children do (rare: parts of format specs, error recovery). */
function gapTokens(text: string, writer: Writer): void {
  for (const word of text.split(/\s+/)) if (word && word !== "\\") writer.token(word);
}

/** Normalized text of statements (each at depth 0, blocks indented below them). */
export function normalizeStatements(nodes: readonly Node[], source: string): string {
  const writer = new Writer();
  for (const node of nodes) {
    if (isSkipped(node)) continue;
    writer.line(0);
    visit(node, 0, writer, source);
  }
  return writer.text();
}

/** Normalized text of an expression (a default value, an annotation, a decorator) on one line. */
export function normalizeExpression(node: Node, source: string): string {
  const writer = new Writer();
  visit(node, 0, writer, source);
  return writer.text(" ");
}
