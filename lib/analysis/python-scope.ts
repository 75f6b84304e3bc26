/**
 * The statements of a module or class body, sorted into what the Context metric compares:
 * docstring, imports, assignments (variables, attributes) and everything else.
 */
import type { Node } from "web-tree-sitter";
import { normalizeExpression, normalizeStatements } from "./normalize";
import { docstringValue } from "./python-strings";
import type { ImportEntry, StatementEntry, VariableEntry } from "./schema";

export interface ScopeContents {
  docstring: { value: string; startLine: number; endLine: number } | null;
  imports: ImportEntry[];
  variables: VariableEntry[];
  statements: StatementEntry[];
}

const DEFINITIONS = new Set(["function_definition", "class_definition", "decorated_definition"]);
const IMPORTS = new Set(["import_statement", "import_from_statement", "future_import_statement"]);

export const startLine = (node: Node) => node.startPosition.row + 1;
/** Last line of a node (a node ending at column 0 ends on the line before). */
export const endLine = (node: Node) =>
  Math.max(startLine(node), node.endPosition.row + (node.endPosition.column === 0 ? 0 : 1));

/** Statements of a module or block, without comments. */
export function statementsOf(body: Node): Node[] {
  return body.namedChildren.filter((n): n is Node => n !== null && n.type !== "comment");
}

/**
 * The docstring statement of a body (first statement, a plain str literal), or null. Parentheses
 * do not matter: `("ab"\n "cd")` is the docstring "abcd", as CPython reads it.
 */
export function docstringOf(statements: readonly Node[]): { node: Node; value: string } | null {
  const first = statements[0];
  if (first?.type !== "expression_statement" || first.namedChildCount !== 1) return null;
  let literal = first.namedChildren[0];
  while (literal?.type === "parenthesized_expression") {
    const inner = literal.namedChildren.filter((c) => c !== null && c.type !== "comment");
    literal = inner.length === 1 ? (inner[0] ?? undefined) : undefined;
  }
  if (!literal || (literal.type !== "string" && literal.type !== "concatenated_string")) return null;
  const value = docstringValue(literal);
  return value === null ? null : { node: first, value };
}

export function readScope(body: Node, source: string, withImports: boolean): ScopeContents {
  const statements = statementsOf(body);
  const doc = docstringOf(statements);
  const contents: ScopeContents = {
    docstring: doc ? { value: doc.value, startLine: startLine(doc.node), endLine: endLine(doc.node) } : null,
    imports: [],
    variables: [],
    statements: [],
  };
  sortStatements(doc ? statements.slice(1) : statements, source, withImports, contents);
  return contents;
}

/** Sorts statements (not a docstring) into `contents`: imports (when `withImports`), variables, the rest. */
export function sortStatements(
  statements: readonly Node[],
  source: string,
  withImports: boolean,
  contents: Omit<ScopeContents, "docstring">,
): void {
  for (const statement of statements) {
    if (DEFINITIONS.has(statement.type)) continue;
    if (withImports && IMPORTS.has(statement.type)) {
      contents.imports.push(...readImport(statement));
      continue;
    }
    const assignment = statement.type === "expression_statement" ? statement.namedChildren[0] : null;
    if (assignment?.type === "assignment" && statement.namedChildCount === 1) {
      contents.variables.push(readAssignment(assignment, statement, source));
      continue;
    }
    contents.statements.push({
      text: normalizeStatements([statement], source),
      line: startLine(statement),
      endLine: endLine(statement),
    });
  }
}

const dotted = (node: Node | null): string => (node ? node.text.replace(/\s|\\/g, "") : "");

function readImport(statement: Node): ImportEntry[] {
  const lines = { line: startLine(statement), endLine: endLine(statement) };
  const nameOf = (item: Node) =>
    item.type === "aliased_import"
      ? { name: dotted(item.childForFieldName("name")), alias: item.childForFieldName("alias")?.text ?? null }
      : { name: dotted(item), alias: null };
  if (statement.type === "import_statement") {
    return statement.namedChildren
      .filter((item): item is Node => item !== null && item.type !== "comment")
      .map((item) => {
        const name = nameOf(item);
        return { kind: "import" as const, module: name.name, names: [name], ...lines };
      });
  }
  const names = statement
    .childrenForFieldName("name")
    .filter((item): item is Node => item !== null)
    .map(nameOf);
  if (statement.namedChildren.some((c) => c?.type === "wildcard_import")) names.push({ name: "*", alias: null });
  const moduleName =
    statement.type === "future_import_statement" ? "__future__" : dotted(statement.childForFieldName("module_name"));
  return [{ kind: "from", module: moduleName, names, ...lines }];
}

const PATTERNS = new Set(["pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "expression_list"]);

function boundNames(target: Node, source: string, into: string[]): void {
  if (target.type === "identifier") into.push(target.text);
  else if (PATTERNS.has(target.type) || target.type === "parenthesized_expression") {
    for (const child of target.namedChildren) if (child) boundNames(child, source, into);
  } else if (target.type !== "comment") into.push(normalizeExpression(target, source));
}

function readAssignment(assignment: Node, statement: Node, source: string): VariableEntry {
  const targets: Node[] = [];
  let current: Node | null = assignment;
  let annotation: string | null = null;
  let value: Node | null = null;
  while (current?.type === "assignment") {
    const left = current.childForFieldName("left");
    if (left) targets.push(left);
    const type = current.childForFieldName("type");
    if (type && annotation === null) annotation = normalizeExpression(type, source);
    value = current.childForFieldName("right");
    current = value;
  }
  const names: string[] = [];
  for (const target of targets) boundNames(target, source, names);
  return {
    names,
    target: targets.map((t) => normalizeExpression(t, source)).join(" = "),
    annotation,
    value: value ? normalizeExpression(value, source) : null,
    line: startLine(statement),
    endLine: endLine(statement),
  };
}
