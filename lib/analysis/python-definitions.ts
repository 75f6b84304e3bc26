/**
 * Functions and methods of a Python module by qualified name, with the line spans the benchmark
 * needs (decorators, signature, docstring, body) and whether the definition sits inside a
 * conditional or other block instead of directly in its module or class body.
 */
import type { Node, Tree } from "web-tree-sitter";

export interface FunctionDefinition {
  /** `func`, `Class.method`, `Outer.Inner.method`. */
  qualifiedName: string;
  name: string;
  kind: "function" | "method";
  isAsync: boolean;
  /** 1-based lines. `startLine` includes decorators; `defLine` is the `def` line. */
  startLine: number;
  defLine: number;
  /** Last line of the signature (the line holding the colon that opens the body). */
  signatureEndLine: number;
  docstring: { startLine: number; endLine: number; text: string } | null;
  /** First line of the body after the docstring (null when the docstring is the whole body). */
  bodyStartLine: number | null;
  endLine: number;
  /** Column of the body's first statement. */
  bodyIndent: number;
  /** Inside an if/try/with/for/while block of its module or class (DevEval drops these). */
  inBlock: boolean;
  node: Node;
}

/** Statements whose bodies are not a module's or class's own level (a definition there is "in a block"). */
export const BLOCK_TYPES: ReadonlySet<string> = new Set([
  "if_statement",
  "elif_clause",
  "else_clause",
  "try_statement",
  "except_clause",
  "finally_clause",
  "with_statement",
  "for_statement",
  "while_statement",
  "block",
]);

export function listFunctionDefinitions(tree: Tree): FunctionDefinition[] {
  const found: FunctionDefinition[] = [];
  const visit = (node: Node, scope: string[], inClass: boolean, inBlock: boolean) => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      const definition = child.type === "decorated_definition" ? child.childForFieldName("definition") : child;
      if (definition?.type === "function_definition") {
        found.push(describeFunction(child, definition, scope, inClass, inBlock));
      } else if (definition?.type === "class_definition") {
        const name = definition.childForFieldName("name")?.text ?? "?";
        const body = definition.childForFieldName("body");
        if (body) visit(body, [...scope, name], true, inBlock);
      } else if (BLOCK_TYPES.has(child.type)) {
        visit(child, scope, inClass, true);
      }
    }
  };
  visit(tree.rootNode, [], false, false);
  return found;
}

function describeFunction(
  outer: Node,
  fn: Node,
  scope: string[],
  inClass: boolean,
  inBlock: boolean,
): FunctionDefinition {
  const name = fn.childForFieldName("name")?.text ?? "?";
  const body = fn.childForFieldName("body");
  const statements = body?.namedChildren.filter((n): n is Node => n !== null && n.type !== "comment") ?? [];
  const first = statements[0];
  const isDocstring = first?.type === "expression_statement" && first.namedChildren[0]?.type === "string";
  const docstring =
    first && isDocstring
      ? { startLine: first.startPosition.row + 1, endLine: first.endPosition.row + 1, text: first.text }
      : null;
  const bodyFirst = isDocstring ? statements[1] : first;
  // The colon ending the signature is the last anonymous ":" child before the body.
  const colon = fn.children.filter((c): c is Node => c !== null && c.type === ":").at(-1);
  return {
    qualifiedName: [...scope, name].join("."),
    name,
    kind: inClass ? "method" : "function",
    isAsync: fn.children.some((c) => c?.type === "async"),
    startLine: outer.startPosition.row + 1,
    defLine: fn.startPosition.row + 1,
    signatureEndLine: (colon ?? fn).startPosition.row + 1,
    docstring,
    bodyStartLine: bodyFirst ? bodyFirst.startPosition.row + 1 : null,
    endLine: fn.endPosition.row + 1,
    bodyIndent: (first ?? fn).startPosition.column,
    inBlock,
    node: fn,
  };
}
