/**
 * The function/method and class entries of an AST report: interfaces (parameters, decorators,
 * annotations, async), docstrings, normalized bodies and line spans.
 */
import { createHash } from "node:crypto";
import type { Node, Tree } from "web-tree-sitter";
import { normalizeExpression, normalizeStatements } from "./normalize";
import { LruCache, type LruLimits } from "@/lib/util/lru-cache";
import {
  describe,
  listDefinitions,
  listFunctionDefinitions,
  occurrenceCounter,
  occurrenceKey,
  walkDefinitionsIn,
  type DefinitionSite,
  type PythonDefinition,
} from "./python-definitions";
import { docstringOf, endLine, readScope, startLine, statementsOf } from "./python-scope";
import type { ClassEntry, FunctionEntry, Parameter, ParameterKind } from "./schema";

export function functionEntries(tree: Tree, source: string): FunctionEntry[] {
  return listFunctionDefinitions(tree).map((definition) => functionEntry(definition, source));
}

function functionEntry(definition: PythonDefinition, source: string): FunctionEntry {
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
    kind: definition.kind as FunctionEntry["kind"],
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
    .map((definition) => classEntry(definition, source));
}

function classEntry(definition: PythonDefinition, source: string): ClassEntry {
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
}

/**
 * What a definition's entry holds that its text alone decides, lines counted from its first
 * line (0): the same text at the same place in its line (after the same indentation) parses to
 * the same subtree in a tree without errors, so its entry is the same up to where it starts.
 */
type DefinitionFragment = { isClass: false; entry: FunctionEntry } | { isClass: true; entry: ClassEntry };

/** Fragments of definitions by their text (memoKey): shared between the files of a process. */
export type DefinitionMemo = LruCache<DefinitionFragment>;

/** A few thousand definitions of a few hundred lines: tens of MB at most. */
export const DEFINITION_MEMO_LIMITS: LruLimits = { entries: 8192, bytes: 64 * 1024 * 1024 };

export const newDefinitionMemo = (limits = DEFINITION_MEMO_LIMITS): DefinitionMemo => new LruCache(limits);

/** The entries of a module's classes and functions, in source order. */
export interface DefinitionEntries {
  classes: ClassEntry[];
  functions: FunctionEntry[];
}

/**
 * The class and function entries of a module in one walk, exactly as classEntries and
 * functionEntries give them. With a memo (and a tree without errors), a definition whose text was
 * analyzed before is not analyzed again: an agent's version of a file shares most of its
 * definitions with the original, byte for byte, and normalizing their bodies was most of a
 * report's time.
 */
export function definitionEntries(tree: Tree, source: string, memo: DefinitionMemo | null): DefinitionEntries {
  return definitionEntriesIn(tree.rootNode.namedChildren, source, tree.rootNode.hasError ? null : memo);
}

/**
 * definitionEntries of some of a module's top-level statements (report-splice.ts), occurrences
 * counted among them; `memo` only for statements of a tree without errors.
 */
export function definitionEntriesIn(
  statements: readonly (Node | null)[],
  source: string,
  memo: DefinitionMemo | null,
): DefinitionEntries {
  const result: DefinitionEntries = { classes: [], functions: [] };
  const occurrence = occurrenceCounter();
  walkDefinitionsIn(statements, (site) => {
    const fragment = memo ? memoized(site, source, memo) : null;
    const definition = fragment ? null : describe(site);
    const name = fragment ? fragment.entry.name : definition!.name;
    const qualifiedName = [...site.scope, name].join(".");
    const context = {
      qualifiedName,
      occurrence: occurrence(occurrenceKey(site.isClass, qualifiedName)),
      inBlock: site.inBlock,
    };
    if (site.isClass) {
      const entry = fragment?.isClass ? fragment.entry : classEntry(definition!, source);
      result.classes.push(placeClass(entry, context, fragment ? site.outer.startPosition.row : 0));
    } else {
      const entry = fragment && !fragment.isClass ? fragment.entry : functionEntry(definition!, source);
      const kind = site.inClass ? "method" : "function";
      result.functions.push(placeFunction(entry, { ...context, kind }, fragment ? site.outer.startPosition.row : 0));
    }
    return name;
  });
  return result;
}

/**
 * The key of a definition in the memo: its indentation (the text before it on its line) and its
 * text, as they are (a Map hashes a string faster than sha256 does; the memo counts its bytes).
 */
function memoKey(outer: Node, source: string): string {
  const start = outer.startIndex;
  const lineStart = source.lastIndexOf("\n", start - 1) + 1;
  return `${source.slice(lineStart, start)}\n${source.slice(start, outer.endIndex)}`;
}

/** The fragment of the definition at `site`, from the memo or made (and kept) now. */
function memoized(site: DefinitionSite, source: string, memo: DefinitionMemo): DefinitionFragment {
  const key = memoKey(site.outer, source);
  const known = memo.get(key);
  if (known) return known;
  const definition = describe({ ...site, scope: [], inBlock: false });
  const first = definition.startLine - 1;
  let fragment: DefinitionFragment;
  if (site.isClass) {
    const entry = classEntry(definition, source);
    fragment = { isClass: true, entry: placeClass(entry, entry, -first) };
  } else {
    const entry = functionEntry(definition, source);
    fragment = { isClass: false, entry: placeFunction(entry, entry, -first) };
  }
  // The key (the definition's text) and the fragment's texts: about 4 bytes per character.
  memo.set(key, fragment, 4 * (site.outer.endIndex - site.outer.startIndex) + 512);
  return fragment;
}

export interface Context {
  qualifiedName: string;
  occurrence: number;
  inBlock: boolean;
}

const shiftSpan = <T extends { startLine: number; endLine: number } | null>(span: T, by: number): T =>
  (span ? { startLine: span.startLine + by, endLine: span.endLine + by } : null) as T;
export const shiftLines = <T extends { line: number; endLine: number }>(item: T, by: number): T => ({
  ...item,
  line: item.line + by,
  endLine: item.endLine + by,
});

/** A function entry in its context, its lines moved by `by` (a new object: entries are not shared). */
export function placeFunction(
  entry: FunctionEntry,
  context: Context & Pick<FunctionEntry, "kind">,
  by: number,
): FunctionEntry {
  return {
    qualifiedName: context.qualifiedName,
    name: entry.name,
    occurrence: context.occurrence,
    kind: context.kind,
    isAsync: entry.isAsync,
    decorators: [...entry.decorators],
    parameters: entry.parameters.map((p) => ({ ...p, line: p.line + by })),
    returnAnnotation: entry.returnAnnotation,
    docstring: entry.docstring,
    docstringSpan: shiftSpan(entry.docstringSpan, by),
    normalizedBody: entry.normalizedBody,
    bodyHash: entry.bodyHash,
    inBlock: context.inBlock,
    startLine: entry.startLine + by,
    defLine: entry.defLine + by,
    endLine: entry.endLine + by,
  };
}

/** A class entry in its context, its lines moved by `by` (a new object). */
export function placeClass(entry: ClassEntry, context: Context, by: number): ClassEntry {
  return {
    qualifiedName: context.qualifiedName,
    name: entry.name,
    occurrence: context.occurrence,
    decorators: [...entry.decorators],
    docstring: entry.docstring,
    docstringSpan: shiftSpan(entry.docstringSpan, by),
    inBlock: context.inBlock,
    startLine: entry.startLine + by,
    defLine: entry.defLine + by,
    endLine: entry.endLine + by,
    bases: [...entry.bases],
    variables: entry.variables.map((v) => shiftLines({ ...v, names: [...v.names] }, by)),
    statements: entry.statements.map((s) => shiftLines(s, by)),
  };
}
