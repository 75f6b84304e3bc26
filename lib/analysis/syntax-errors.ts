/**
 * The syntax errors a tree-sitter tree shows: its ERROR and MISSING nodes, plus what its grammar
 * accepts and Python 3 does not (Python 2 `print`/`exec` statements, inconsistent indentation, a
 * parameter without a default after one with a default, a positional argument after a keyword
 * argument). Whether a module compiles is CPython's verdict (cpython-check.ts); this list adds the
 * errors after CPython's first one, and tells where tree-sitter's structure is incomplete.
 */
import type { Node, Tree } from "web-tree-sitter";
import { expandTabs } from "./python-strings";
import type { PythonSyntaxError } from "./schema";

export type { PythonSyntaxError } from "./schema";

const COMPOUND = new Set([
  "if_statement",
  "for_statement",
  "while_statement",
  "try_statement",
  "with_statement",
  "match_statement",
  "function_definition",
  "class_definition",
  "decorated_definition",
]);

/** CPython's words for a line indented deeper than its block: after a compound statement, a dedent to no known level. */
function misindented(previous: Node | null): string {
  return previous && COMPOUND.has(previous.type)
    ? "unindent does not match any outer indentation level"
    : "unexpected indent";
}

const CLAUSES = new Set(["elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause"]);
const CHECKED = new Set([
  "ERROR",
  "print_statement",
  "exec_statement",
  "parameters",
  "lambda_parameters",
  "argument_list",
  "module",
  "block",
  "decorated_definition",
  ...CLAUSES,
]);

export function listSyntaxErrors(tree: Tree, source: string): PythonSyntaxError[] {
  const errors: PythonSyntaxError[] = [];
  const lines = source.split("\n");
  const add = (node: Node, message: string) =>
    errors.push({ line: node.startPosition.row + 1, column: node.startPosition.column + 1, message });

  /** Indentation of the line `node` starts, or null when something precedes it on that line. */
  const indentOf = (node: Node): Indent | null => {
    const line = lines[node.startPosition.row] ?? "";
    const prefix = line.slice(0, node.startPosition.column);
    return /^[ \t\f]*$/.test(prefix) ? measure(prefix) : null;
  };
  const lineIndent = (node: Node): Indent => {
    const line = lines[node.startPosition.row] ?? "";
    return measure(/^[ \t\f]*/.exec(line)?.[0] ?? "");
  };

  /** Checks one node; false when its subtree is not worth entering (an ERROR is reported once). */
  const check = (node: Node): boolean => {
    if (node.type === "ERROR") {
      const text = node.text.trim().split("\n")[0]?.slice(0, 40) ?? "";
      add(node, text ? `invalid syntax near \`${text}\`` : "invalid syntax");
      return false;
    }
    if (node.isMissing) {
      add(node, `missing \`${node.type}\``);
      return false;
    }
    if (node.type === "print_statement" || node.type === "exec_statement") {
      add(node, `Python 2 \`${node.type === "print_statement" ? "print" : "exec"}\` statement`);
    } else if (node.type === "parameters" || node.type === "lambda_parameters") {
      checkParameterOrder(node, add);
    } else if (node.type === "argument_list") {
      checkArgumentOrder(node, add);
    } else if (node.type === "module") {
      let previous: Node | null = null;
      for (const statement of node.namedChildren) {
        if (!statement || statement.type === "comment") continue;
        const indent = indentOf(statement);
        if (indent && (indent.tab8 > 0 || indent.tab1 > 0)) add(statement, misindented(previous));
        previous = statement;
      }
    } else if (node.type === "block" && node.parent) {
      checkBlock(node, lineIndent(node.parent), indentOf, add);
    } else if (node.type === "decorated_definition") {
      const own = lineIndent(node);
      for (const part of node.namedChildren) {
        const indent = part && part.type !== "comment" ? indentOf(part) : null;
        if (part && indent && compare(indent, own) !== 0) add(part, "unexpected indent");
      }
    } else if (CLAUSES.has(node.type) && node.parent) {
      const own = indentOf(node);
      if (own && compare(own, lineIndent(node.parent)) !== 0)
        add(node, "unindent does not match any outer indentation level");
    }
    return true;
  };
  // A cursor walk: materializing a Node for every leaf would cost more than the whole parse.
  const cursor = tree.walk();
  try {
    let descend = true;
    for (;;) {
      if (cursor.nodeIsMissing || CHECKED.has(cursor.nodeType)) descend = check(cursor.currentNode);
      if (descend && cursor.gotoFirstChild()) continue;
      descend = true;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return finish(errors);
    }
  } finally {
    cursor.delete();
  }
}

function finish(errors: PythonSyntaxError[]): PythonSyntaxError[] {
  const seen = new Set<string>();
  return errors
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .filter((e) => {
      const key = `${e.line}:${e.column}:${e.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

interface Indent {
  /** Width with tabs to multiples of 8 (what CPython compares)... */
  tab8: number;
  /** ...and with tabs as one column: disagreeing comparisons are a TabError. */
  tab1: number;
}

function measure(prefix: string): Indent {
  return { tab8: expandTabs(prefix.replace(/\f/g, "")).length, tab1: prefix.replace(/\f/g, "").length };
}

/** -1, 0, 1, or NaN when tabs and spaces are mixed inconsistently. */
function compare(a: Indent, b: Indent): number {
  const wide = Math.sign(a.tab8 - b.tab8);
  const narrow = Math.sign(a.tab1 - b.tab1);
  return wide === narrow ? wide : NaN;
}

function checkBlock(
  block: Node,
  header: Indent,
  indentOf: (node: Node) => Indent | null,
  add: (node: Node, message: string) => void,
): void {
  let level: Indent | null = null;
  let inline = false;
  let previous: Node | null = null;
  block.namedChildren.forEach((statement, i) => {
    if (!statement || statement.type === "comment") return;
    const before = previous;
    previous = statement;
    const indent = indentOf(statement);
    if (!indent) {
      // `if x: a(); b()`: a block that starts on its header's line cannot continue below it.
      if (i === 0) inline = true;
      return;
    }
    if (inline) return add(statement, "unexpected indent");
    if (!level) {
      const order = compare(indent, header);
      if (Number.isNaN(order)) add(statement, "inconsistent use of tabs and spaces in indentation");
      else if (order <= 0) add(statement, "expected an indented block");
      level = indent;
      return;
    }
    const order = compare(indent, level);
    if (Number.isNaN(order)) add(statement, "inconsistent use of tabs and spaces in indentation");
    else if (order > 0) add(statement, misindented(before));
    else if (order < 0) add(statement, "unindent does not match any outer indentation level");
  });
}

function checkParameterOrder(parameters: Node, add: (node: Node, message: string) => void): void {
  let sawDefault = false;
  for (const parameter of parameters.namedChildren) {
    if (!parameter) continue;
    const type = parameter.type;
    if (type === "default_parameter" || type === "typed_default_parameter") sawDefault = true;
    else if (
      type === "identifier" ||
      (type === "typed_parameter" && parameter.firstNamedChild?.type === "identifier")
    ) {
      if (sawDefault) add(parameter, "parameter without a default follows parameter with a default");
    } else if (type !== "positional_separator" && type !== "comment") return; // `*`, `*args`, `**kw`: keyword-only from here
  }
}

function checkArgumentOrder(args: Node, add: (node: Node, message: string) => void): void {
  let sawKeyword: "keyword argument" | "keyword argument unpacking" | null = null;
  for (const argument of args.namedChildren) {
    if (!argument || argument.type === "comment") continue;
    if (argument.type === "keyword_argument") sawKeyword ??= "keyword argument";
    else if (argument.type === "dictionary_splat") sawKeyword = "keyword argument unpacking";
    else if (argument.type !== "list_splat" && sawKeyword) add(argument, `positional argument follows ${sawKeyword}`);
  }
}
