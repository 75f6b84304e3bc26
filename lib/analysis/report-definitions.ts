/**
 * The function/method and class entries of an AST report: interfaces (parameters, decorators,
 * annotations, async), docstrings, normalized bodies and line spans.
 */
import { createHash } from "node:crypto";
import type { Node, Tree } from "web-tree-sitter";
import { normalizeExpression, normalizeStatements } from "./normalize";
import { listDefinitions, listFunctionDefinitions } from "./python-definitions";
import { docstringOf, endLine, readScope, startLine, statementsOf } from "./python-scope";
import type { ClassEntry, FunctionEntry, Parameter, ParameterKind } from "./schema";

export function functionEntries(tree: Tree, source: string): FunctionEntry[] {
  return listFunctionDefinitions(tree).map((definition) => {
    const fn = definition.node;
    const body = fn.childForFieldName("body");
    const statements = body ? statementsOf(body) : [];
    const doc = docstringOf(statements);
    const rest = doc ? statements.slice(1) : statements;
    const normalizedBody = normalizeStatements(rest, source);
    const returnType = fn.childForFieldName("return_type");
    const parameters = fn.childForFieldName("parameters");
    return {
      qualifiedName: definition.qualifiedName,
      name: definition.name,
      occurrence: definition.occurrence,
      kind: definition.kind,
      isAsync: definition.isAsync,
      decorators: definition.decorators.map((d) => normalizeExpression(d, source)),
      parameters: parameters ? parametersOf(parameters, source) : [],
      returnAnnotation: returnType ? normalizeExpression(returnType, source) : null,
      docstring: doc?.value ?? null,
      docstringSpan: doc ? { startLine: startLine(doc.node), endLine: endLine(doc.node) } : null,
      normalizedBody,
      bodyHash: createHash("sha256").update(normalizedBody).digest("hex"),
      inBlock: definition.inBlock,
      startLine: definition.startLine,
      defLine: definition.defLine,
      endLine: endLine(fn),
    };
  });
}

export function parametersOf(parameters: Node, source: string): Parameter[] {
  const found: Parameter[] = [];
  let kind: ParameterKind = "positional_or_keyword";
  const text = (node: Node | null) => (node ? normalizeExpression(node, source) : null);
  const push = (name: string, at: Node, own: ParameterKind, value: Node | null, type: Node | null) =>
    found.push({ name, kind: own, default: text(value), annotation: text(type), line: startLine(at) });
  const splatName = (node: Node) => node.namedChildren.find((c) => c?.type === "identifier")?.text ?? node.text;

  for (const child of parameters.namedChildren) {
    if (!child) continue;
    switch (child.type) {
      case "identifier":
        push(child.text, child, kind, null, null);
        break;
      case "default_parameter":
      case "typed_default_parameter":
        push(
          child.childForFieldName("name")?.text ?? "?",
          child,
          kind,
          child.childForFieldName("value"),
          child.childForFieldName("type"),
        );
        break;
      case "typed_parameter": {
        const inner = child.namedChildren.find((c) => c !== null && c.type !== "type" && c.type !== "comment");
        const type = child.childForFieldName("type");
        if (inner?.type === "list_splat_pattern") {
          push(splatName(inner), child, "var_positional", null, type);
          kind = "keyword_only";
        } else if (inner?.type === "dictionary_splat_pattern") {
          push(splatName(inner), child, "var_keyword", null, type);
        } else push(inner?.text ?? "?", child, kind, null, type);
        break;
      }
      case "list_splat_pattern":
        push(splatName(child), child, "var_positional", null, null);
        kind = "keyword_only";
        break;
      case "dictionary_splat_pattern":
        push(splatName(child), child, "var_keyword", null, null);
        break;
      case "keyword_separator":
        kind = "keyword_only";
        break;
      case "positional_separator":
        for (const p of found) if (p.kind === "positional_or_keyword") p.kind = "positional_only";
        break;
      default:
        break;
    }
  }
  return found;
}

/** Classes by qualified name (nested classes included; classes inside functions are part of the body). */
export function classEntries(tree: Tree, source: string): ClassEntry[] {
  return listDefinitions(tree)
    .filter((d) => d.kind === "class")
    .map((definition) => {
      const body = definition.node.childForFieldName("body");
      const contents = body ? readScope(body, source, false) : null;
      const superclasses = definition.node.childForFieldName("superclasses");
      return {
        qualifiedName: definition.qualifiedName,
        name: definition.name,
        occurrence: definition.occurrence,
        decorators: definition.decorators.map((d) => normalizeExpression(d, source)),
        docstring: contents?.docstring?.value ?? null,
        docstringSpan: contents?.docstring
          ? { startLine: contents.docstring.startLine, endLine: contents.docstring.endLine }
          : null,
        inBlock: definition.inBlock,
        startLine: definition.startLine,
        defLine: definition.defLine,
        endLine: endLine(definition.node),
        bases: (superclasses?.namedChildren ?? [])
          .filter((n): n is Node => n !== null && n.type !== "comment")
          .map((n) => normalizeExpression(n, source)),
        variables: contents?.variables ?? [],
        statements: contents?.statements ?? [],
      };
    });
}
