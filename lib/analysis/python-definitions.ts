/**
 * The one model of a Python module's definitions: every class, function and method by qualified
 * name, in source order, with the line spans the benchmark, the analyzer, the judges and the run
 * page need. Functions nested inside functions are part of their body, not definitions of the
 * module. A source that does not parse is outlined from its tokens instead (outlineDefinitions).
 */
import type { Node, Tree } from "web-tree-sitter";
import { parsePython } from "./python-parser";
import { recoverDefinitions, type DefinitionOutline } from "./python-recovery";
import { leadingWhitespace } from "./python-strings";
import { parseTargetName } from "./target-name";
import { LruCache } from "@/lib/util/lru-cache";

export type { DefinitionOutline } from "./python-recovery";

export interface PythonDefinition {
  /** `func`, `Class.method`, `Outer.Inner.method`. */
  qualifiedName: string;
  name: string;
  kind: "function" | "method" | "class";
  /** 1 for the first definition of its qualified name (and kind), 2 for a redefinition, ... */
  occurrence: number;
  isAsync: boolean;
  /** The `@...` decorator nodes, in source order. */
  decorators: Node[];
  /** 1-based lines. `startLine` includes decorators; `defLine` is the `def`/`class` line. */
  startLine: number;
  defLine: number;
  /** Last line of the signature (the line holding the colon that opens the body). */
  signatureEndLine: number;
  docstring: { startLine: number; endLine: number; text: string } | null;
  /** First line of the body after the docstring (null when the docstring is the whole body). */
  bodyStartLine: number | null;
  /** Last line of the node, trailing comments of the body included. */
  endLine: number;
  /** Last line of code: trailing comments of the body left out (what a reader calls the definition). */
  codeEndLine: number;
  /** Column of the body's first statement. */
  bodyIndent: number;
  /** Inside an if/try/with/for/while block of its module or class (DevEval drops these). */
  inBlock: boolean;
  /** The function_definition or class_definition; `outer` is its decorated_definition when decorated. */
  node: Node;
  outer: Node;
}

export type FunctionDefinition = PythonDefinition & { kind: "function" | "method" };

/** Statements whose bodies are not a module's or class's own level (a definition there is "in a block"). */
const BLOCK_TYPES: ReadonlySet<string> = new Set([
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

/** Where a definition sits: its nodes, the names of the classes around it, and its block. */
export interface DefinitionSite {
  /** The decorated_definition when decorated, else `node`. */
  outer: Node;
  node: Node;
  isClass: boolean;
  /** Names of the enclosing classes, outermost first. */
  scope: string[];
  inClass: boolean;
  inBlock: boolean;
}

/**
 * Walks the definitions under `root` in source order. `each` gives a class's name, under which
 * its body is walked next (a function's body is its own: not walked).
 */
export function walkDefinitions(root: Node, each: (site: DefinitionSite) => string): void {
  walkDefinitionsIn(root.namedChildren, each);
}

/** walkDefinitions over some of a module's top-level statements (report-splice.ts). */
export function walkDefinitionsIn(statements: readonly (Node | null)[], each: (site: DefinitionSite) => string): void {
  const visit = (children: readonly (Node | null)[], scope: string[], inClass: boolean, inBlock: boolean) => {
    for (const child of children) {
      if (!child) continue;
      const childType = child.type;
      const isDecorated = childType === "decorated_definition";
      const definition = isDecorated ? child.childForFieldName("definition") : child;
      const type = isDecorated ? definition?.type : childType;
      if (definition && (type === "function_definition" || type === "class_definition")) {
        const isClass = type === "class_definition";
        const name = each({ outer: child, node: definition, isClass, scope, inClass, inBlock });
        const body = isClass ? definition.childForFieldName("body") : null;
        if (body) visit(body.namedChildren, [...scope, name], true, inBlock);
      } else if (!isDecorated && BLOCK_TYPES.has(childType)) {
        visit(child.namedChildren, scope, inClass, true);
      }
    }
  };
  visit(statements, [], false, false);
}

/** Counts `key`s seen: 1 for the first, 2 for the next, ... */
export function occurrenceCounter(): (key: string) => number {
  const seen = new Map<string, number>();
  return (key) => {
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return occurrence;
  };
}

/** The occurrence key of a definition: its qualified name, classes apart from functions. */
export const occurrenceKey = (isClass: boolean, qualifiedName: string) => `${isClass}:${qualifiedName}`;

/** Classes, functions and methods of a parsed module, in source order. */
export function listDefinitions(tree: Tree): PythonDefinition[] {
  const found: PythonDefinition[] = [];
  const occurrence = occurrenceCounter();
  walkDefinitions(tree.rootNode, (site) => {
    const entry = describe(site);
    entry.occurrence = occurrence(occurrenceKey(site.isClass, entry.qualifiedName));
    found.push(entry);
    return entry.name;
  });
  return found;
}

export function listFunctionDefinitions(tree: Tree): FunctionDefinition[] {
  return listDefinitions(tree).filter((d): d is FunctionDefinition => d.kind !== "class");
}

/** A definition read from its site (`occurrence` 1: the caller counts). */
export function describe({ outer, node, isClass, scope, inClass, inBlock }: DefinitionSite): PythonDefinition {
  const name = node.childForFieldName("name")?.text ?? "?";
  const body = node.childForFieldName("body");
  const statements = body?.namedChildren.filter((n): n is Node => n !== null && n.type !== "comment") ?? [];
  const first = statements[0];
  const isDocstring = first?.type === "expression_statement" && first.namedChildren[0]?.type === "string";
  const docstring =
    first && isDocstring
      ? { startLine: first.startPosition.row + 1, endLine: first.endPosition.row + 1, text: first.text }
      : null;
  const bodyFirst = isDocstring ? statements[1] : first;
  // The colon ending the signature is the last anonymous ":" child before the body.
  const colon = node.children.filter((c): c is Node => c !== null && c.type === ":").at(-1);
  return {
    qualifiedName: [...scope, name].join("."),
    name,
    kind: isClass ? "class" : inClass ? "method" : "function",
    occurrence: 1,
    isAsync: node.children.some((c) => c?.type === "async"),
    decorators:
      outer === node ? [] : outer.namedChildren.filter((n): n is Node => n !== null && n.type === "decorator"),
    startLine: outer.startPosition.row + 1,
    defLine: node.startPosition.row + 1,
    signatureEndLine: (colon ?? node).startPosition.row + 1,
    docstring,
    bodyStartLine: bodyFirst ? bodyFirst.startPosition.row + 1 : null,
    endLine: node.endPosition.row + 1,
    codeEndLine: lastCodeLine(node),
    bodyIndent: (first ?? node).startPosition.column,
    inBlock,
    node,
    outer,
  };
}

/** 1-based line where the last token of `node` that is not a comment ends. */
function lastCodeLine(node: Node): number {
  let last = node;
  for (;;) {
    // Walking back from the last child: listing `children` copies every method of a class.
    let child = last.lastChild;
    while (child && (child.type === "comment" || child.endIndex === child.startIndex)) child = child.previousSibling;
    if (!child) break;
    last = child;
  }
  return last.endPosition.row + 1;
}

/**
 * The definitions of a module as spans. When the source does not parse, tree-sitter's error
 * recovery can swallow a definition whole (a `def` missing its colon comes back as an ERROR node
 * holding no function_definition); the definitions are then read from its tokens by indentation,
 * as Python itself would, so an answer with a syntax error still reaches the Syntax metric.
 */
export function outlineDefinitions(tree: Tree, source: string): DefinitionOutline[] {
  const lines = source.split("\n");
  if (tree.rootNode.hasError) return recoverDefinitions(tree, lines);
  return listDefinitions(tree).map((d) => ({
    kind: d.kind,
    name: d.name,
    qualifiedName: d.qualifiedName,
    startLine: d.startLine,
    defLine: d.defLine,
    endLine: d.codeEndLine,
    indent: leadingWhitespace(lines[d.defLine - 1] ?? ""),
  }));
}

/**
 * Outlines of recently outlined sources, by text: a function-level run's original file is
 * outlined twice per run (its Code-level and Instruction Following verdicts each merge the answer
 * into it), and every run of the instance shares it. Frozen: one caller's change would be the next one's.
 */
const recentOutlines = new LruCache<readonly DefinitionOutline[]>({ entries: 64, bytes: 32 * 1024 * 1024 });

/** Forgets the outlines (with the report cache: a benchmark's repetitions each start as a fresh process would). */
export function clearOutlineCache(): void {
  recentOutlines.clear();
}

/** Parses `source` and outlines its definitions. */
export async function outlinePython(source: string): Promise<readonly DefinitionOutline[]> {
  const known = recentOutlines.get(source);
  if (known) return known;
  const tree = await parsePython(source);
  let outline: readonly DefinitionOutline[];
  try {
    outline = Object.freeze(outlineDefinitions(tree, source).map((d) => Object.freeze(d)));
  } finally {
    tree.delete();
  }
  recentOutlines.set(source, outline, 2 * source.length);
  return outline;
}

/**
 * The function a target names: the exact qualified name, else one whose name is a dotted suffix
 * of the other (`get` for `Store.get`, `Store.get` for `pkg.Store.get`), else the same bare name.
 * `name#n` (target-name.ts) picks the n-th definition of the name found, or the last when there
 * are fewer (an answer that holds only the property setter it was asked for).
 */
export function findFunction<T extends Pick<DefinitionOutline, "kind" | "name" | "qualifiedName">>(
  definitions: readonly T[],
  target: string,
): T | null {
  const { qualifiedName, occurrence } = parseTargetName(target);
  const name = qualifiedName.split(".").at(-1) ?? qualifiedName;
  const functions = definitions.filter((d) => d.kind !== "class");
  const found =
    functions.find((d) => d.qualifiedName === qualifiedName) ??
    functions.find(
      (d) => qualifiedName.endsWith(`.${d.qualifiedName}`) || d.qualifiedName.endsWith(`.${qualifiedName}`),
    ) ??
    functions.find((d) => d.name === name) ??
    null;
  if (!found || occurrence === 1) return found;
  const same = functions.filter((d) => d.qualifiedName === found.qualifiedName);
  return same[occurrence - 1] ?? same.at(-1) ?? found;
}
