/**
 * Normalized text of Python code: the tree's tokens minus comments, one statement per line,
 * indented four spaces per block level, tokens joined by single spaces (none inside brackets or
 * around `.`). What a formatter or an editor can change does not show (DESIGN.md: formatting
 * never counts, literals compare by value): layout, comments, blank lines, line continuations,
 * trailing commas, redundant parentheses (wherever dropping them leaves the same CPython AST:
 * `(a*b)+c` is `a*b+c`, `return (a, b)` is `return a, b`; `(a+b)*c` and `(a,)` keep theirs),
 * quote style and escapes of strings and implicit concatenation (a string prints as its value),
 * the spelling of numbers (`0x10`, `1_6` and `16` print as `16`; `1.` as `1.0`), CRLF, tabs.
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

const isSkippedType = (type: string) => type === "comment" || type === "line_continuation";

function isSkipped(node: Node): boolean {
  return isSkippedType(node.type);
}

/** Whether a leaf token glues to its left and right neighbours, by its type and its parent's. */
function glueOf(type: string, parent: Node | null, parentType: string): [boolean, boolean] {
  switch (type) {
    case "(":
      return [
        parentType === "argument_list" ||
          parentType === "parameters" ||
          (parentType === "generator_expression" &&
            (parent?.parent?.type === "call" || parent?.parent?.type === "argument_list")),
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

/** Python's operator precedence, loosest first (the language reference's table, bottom up). */
const PRECEDENCE = {
  namedExpression: 0,
  lambda: 1,
  conditional: 2,
  or: 3,
  and: 4,
  not: 5,
  comparison: 6,
  "|": 7,
  "^": 8,
  "&": 9,
  shift: 10,
  additive: 11,
  multiplicative: 12,
  unary: 13,
  power: 14,
  await: 15,
  primary: 16,
} as const;

const BINARY_PRECEDENCE: Record<string, number> = {
  "|": PRECEDENCE["|"],
  "^": PRECEDENCE["^"],
  "&": PRECEDENCE["&"],
  "<<": PRECEDENCE.shift,
  ">>": PRECEDENCE.shift,
  "+": PRECEDENCE.additive,
  "-": PRECEDENCE.additive,
  "*": PRECEDENCE.multiplicative,
  "@": PRECEDENCE.multiplicative,
  "/": PRECEDENCE.multiplicative,
  "//": PRECEDENCE.multiplicative,
  "%": PRECEDENCE.multiplicative,
  "**": PRECEDENCE.power,
};

/** The expression inside any number of parentheses. */
function unparenthesized(node: Node): Node {
  let inner = node;
  while (inner.type === "parenthesized_expression") {
    const content = inner.namedChildren.find((c): c is Node => c !== null && !isSkipped(c));
    if (!content) break;
    inner = content;
  }
  return inner;
}

const operatorOf = (node: Node) => node.childForFieldName("operator")?.type ?? "";

/** How tightly an expression binds (PRECEDENCE); atoms and primaries bind tightest. */
function precedenceOf(node: Node): number {
  switch (node.type) {
    case "named_expression":
    case "yield":
      return PRECEDENCE.namedExpression;
    case "lambda":
      return PRECEDENCE.lambda;
    case "conditional_expression":
      return PRECEDENCE.conditional;
    case "boolean_operator":
      return operatorOf(node) === "and" ? PRECEDENCE.and : PRECEDENCE.or;
    case "not_operator":
      return PRECEDENCE.not;
    case "comparison_operator":
      return PRECEDENCE.comparison;
    case "binary_operator":
      return BINARY_PRECEDENCE[operatorOf(node)] ?? PRECEDENCE.primary;
    case "unary_operator":
      return PRECEDENCE.unary;
    case "await":
      return PRECEDENCE.await;
    default:
      return PRECEDENCE.primary;
  }
}

/**
 * The loosest precedence `child` of `parent` may have without parentheses and still be the same
 * AST; null when the parent is not an operator (REDUNDANT_PAREN_PARENTS decides). Chained
 * comparisons and `and`/`or` need their parentheses at equal precedence (`(a < b) < c` is not
 * `a < b < c`, `(a and b) and c` is a nested BoolOp); `**` groups to the right.
 */
function loosestAllowed(parent: Node, child: Node): number | null {
  const isFirst = parent.namedChildren.find((c) => c !== null && !isSkipped(c))?.id === child.id;
  switch (parent.type) {
    case "binary_operator": {
      const own = BINARY_PRECEDENCE[operatorOf(parent)] ?? PRECEDENCE.primary;
      if (own === PRECEDENCE.power) return isFirst ? PRECEDENCE.await : PRECEDENCE.unary;
      return isFirst ? own : own + 1;
    }
    case "boolean_operator":
      return precedenceOf(parent) + 1;
    case "comparison_operator":
      return PRECEDENCE.comparison + 1;
    case "not_operator":
      return PRECEDENCE.not;
    case "unary_operator":
      return PRECEDENCE.unary;
    case "await":
      return PRECEDENCE.primary;
    case "conditional_expression": {
      const isLast = parent.namedChildren.filter((c) => c !== null && !isSkipped(c)).at(-1)?.id === child.id;
      return isLast ? PRECEDENCE.lambda : PRECEDENCE.or;
    }
    case "list_splat":
    case "dictionary_splat":
      return PRECEDENCE["|"];
    case "attribute":
    case "call":
    case "subscript":
      // `(1).real` is not `1.real`; the value of a subscript or call is a primary, its index anything.
      if (isFirst) return ["integer", "float"].includes(unparenthesized(child).type) ? null : PRECEDENCE.primary;
      return parent.type === "subscript" ? PRECEDENCE.lambda : null;
    case "slice":
      return PRECEDENCE.lambda;
    default:
      return null;
  }
}

function isRedundantParen(node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (REDUNDANT_PAREN_PARENTS.has(parent.type)) return true;
  const loosest = loosestAllowed(parent, node);
  return loosest !== null && precedenceOf(unparenthesized(node)) >= loosest;
}

/**
 * Where a bare tuple means the same as a parenthesized one (`return (a, b)` = `return a, b`,
 * `for (k, v) in` = `for k, v in`, `x[(1, 2)]` = `x[1, 2]`); not in calls, lists or `del`.
 */
const BARE_TUPLE_PARENTS = new Set([
  "return_statement",
  "expression_statement",
  "assignment",
  "augmented_assignment",
  "for_statement",
  "yield",
  "subscript",
]);

/** A `tuple` or `tuple_pattern` whose parentheses can go (it is not empty; a lone `(a)` is no tuple at all). */
function isBareableTuple(node: Node): boolean {
  if (node.type !== "tuple" && node.type !== "tuple_pattern") return false;
  const items = node.namedChildren.filter((c) => c !== null && !isSkipped(c));
  if (items.length === 0) return false;
  const hasComma = node.children.some((c) => c?.type === ",");
  if (node.type === "tuple_pattern" && !hasComma) return true;
  return BARE_TUPLE_PARENTS.has(node.parent?.type ?? "");
}

/** A call's only argument is a generator: `f((x for x in y))` is `f(x for x in y)`. */
function soleGenerator(argumentList: Node): Node | null {
  const items = argumentList.namedChildren.filter((c) => c !== null && !isSkipped(c));
  return items.length === 1 && items[0]!.type === "generator_expression" ? items[0]! : null;
}

interface StringValue {
  isBytes: boolean;
  /** An f-string (or t-string): `text` is its template, literal parts by value, `{}` doubled. */
  isTemplate: boolean;
  prefix: string;
  text: string;
}

/** The value of a `string` node: plain ones by value; f-strings as a template, interpolations normalized. */
function stringValue(node: Node, source: string): StringValue {
  const parts = stringParts(node);
  if (!parts.isTemplate) {
    return { isBytes: parts.isBytes, isTemplate: false, prefix: parts.prefix, text: plainStringValue(parts) };
  }
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
  return { isBytes: false, isTemplate: true, prefix: parts.prefix.replace("r", ""), text: template };
}

/**
 * A string literal, or an implicit concatenation of them (`"ab" "cd"` is `"abcd"`), as one token:
 * its value JSON-quoted, prefixed by `b` for bytes; f-strings keep their shape as a template.
 */
function stringToken(node: Node, source: string): string {
  const pieces = node.type === "concatenated_string" ? node.namedChildren : [node];
  const values = pieces.filter((p): p is Node => p?.type === "string").map((p) => stringValue(p, source));
  const template = values.find((v) => v.isTemplate);
  if (!template) {
    const isBytes = values.some((v) => v.isBytes);
    return `${isBytes ? "b" : ""}${JSON.stringify(values.map((v) => v.text).join(""))}`;
  }
  const text = values.map((v) => (v.isTemplate ? v.text : v.text.replace(/[{}]/g, "$&$&"))).join("");
  return `${template.prefix}${JSON.stringify(text)}`;
}

/**
 * A number by its value, as Python's repr would print it: `0x10`, `0o20`, `1_6` -> `16`; `1.`,
 * `1.0`, `10e-1` -> `1.0`; `2j` -> `2.0j` (an imaginary literal is a float times j).
 */
function numberToken(text: string): string {
  const plain = text.toLowerCase().replace(/_/g, "");
  if (plain.endsWith("j")) return `${floatText(Number(plain.slice(0, -1)))}j`;
  if (/^(0[xob][0-9a-f]+|\d+)$/.test(plain)) {
    try {
      return BigInt(plain).toString();
    } catch {
      return plain;
    }
  }
  const value = Number(plain);
  return Number.isNaN(value) ? plain : floatText(value);
}

function floatText(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
  const text = String(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/**
 * Writes `node`. Its type, and its parent with the parent's type, come from the caller when it
 * has them: each `type` or `parent` read is a call into WebAssembly (web-tree-sitter keeps
 * neither on the node). Reading each once took bench:analyzer from 51-65 to 76-91 pairs/s.
 */
function visit(
  node: Node,
  depth: number,
  writer: Writer,
  source: string,
  type: string = node.type,
  parent?: { node: Node; type: string },
  end?: number,
): void {
  if (isSkippedType(type)) return;
  if (type === "block") {
    for (const child of node.namedChildren) {
      if (!child) continue;
      const childType = child.type;
      if (isSkippedType(childType)) continue;
      writer.line(depth + 1);
      visit(child, depth + 1, writer, source, childType, { node, type });
    }
    return;
  }
  if (LINE_STARTERS.has(type)) writer.line(depth);
  if (type === "string" || type === "concatenated_string") return writer.token(stringToken(node, source));
  // A node's text is its source's slice (node.text would ask WebAssembly for its end once more).
  if (type === "integer" || type === "float") return writer.token(numberToken(textOf(node, source, end)));
  if (type === "argument_list") {
    const generator = soleGenerator(node);
    if (generator) return visit(generator, depth, writer, source);
  }
  if (type === "dotted_name" || type === "relative_import") return writer.token(node.text.replace(/\s|\\/g, ""));
  if (type === "format_specifier") return writer.token(node.text, true, false);
  const children = node.children;
  if (children.length === 0) {
    const parentNode = parent ? parent.node : node.parent;
    const [left, right] = glueOf(type, parentNode, parent ? parent.type : (parentNode?.type ?? ""));
    return writer.token(textOf(node, source, end), left, right);
  }
  const dropParens = (type === "parenthesized_expression" && isRedundantParen(node)) || isBareableTuple(node);
  let cursor = node.startIndex;
  children.forEach((child, i) => {
    if (!child) return;
    if (child.startIndex > cursor) gapTokens(source.slice(cursor, child.startIndex), writer);
    const childEnd = child.endIndex;
    cursor = Math.max(cursor, childEnd);
    const childType = child.type;
    if (isSkippedType(childType)) return;
    if (childType === "," && isDroppableTrailingComma(node, children, i)) return;
    if ((dropParens || type === "import_from_statement") && (childType === "(" || childType === ")")) return;
    visit(child, depth, writer, source, childType, { node, type }, childEnd);
  });
  const nodeEnd = end ?? node.endIndex;
  if (nodeEnd > cursor) gapTokens(source.slice(cursor, nodeEnd), writer);
}

/** A node's text: its source's slice, to `end` when the caller read it already. */
function textOf(node: Node, source: string, end: number | undefined): string {
  return source.slice(node.startIndex, end ?? node.endIndex);
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
