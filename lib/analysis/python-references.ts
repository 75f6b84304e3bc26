/**
 * References to a module-level name across a repository's Python modules, found on tree-sitter
 * trees: imports (and re-exports through other modules, `__init__.py` above all), bare uses and
 * calls, attribute chains through imported modules (`pkg.mod.fn`, `m.fn` after `import pkg.mod as
 * m` or `from pkg import mod`), and `__all__` entries. A method is matched by name wherever an
 * attribute of that name is read (the receiver's type is not known statically), which errs on the
 * side of reporting a reference. A parameter of the same name hides the symbol inside its function;
 * other local assignments are not tracked, for the same reason.
 */
import path from "node:path";
import type { Node, Tree } from "web-tree-sitter";
import { absoluteModule, listImports, moduleFile, type ModuleIndex } from "./python-imports";

/** What a local name of a module stands for, when it came from an import. */
export type Binding =
  { kind: "module"; module: string; line: number } | { kind: "name"; file: string; name: string; line: number };

export interface Reference {
  file: string;
  line: number;
  kind: "import" | "re-export" | "call" | "use" | "attribute" | "__all__";
  /** The source line, trimmed. */
  text: string;
}

/** The symbol: a module-level name of `file`, or (`member`) an attribute of it (a method). */
export interface SymbolTarget {
  file: string;
  name: string;
  member?: string;
}

const key = (file: string, name: string) => `${file}\0${name}`;

/** The dotted parts of `a.b.c` when the expression is made of names only, else null. */
export function dottedParts(node: Node): string[] | null {
  if (node.type === "identifier") return [node.text];
  if (node.type !== "attribute") return null;
  const object = node.childForFieldName("object");
  const attribute = node.childForFieldName("attribute");
  const head = object ? dottedParts(object) : null;
  return head && attribute ? [...head, attribute.text] : null;
}

/**
 * The names a module binds by its imports (anywhere in the file, lazy imports included), each
 * resolved to a repository module or to a name defined in one. A `from` import's name is a module
 * when one exists by that name, unless `isName(file, name)` says it is a name of interest there.
 */
export function importBindings(
  index: ModuleIndex,
  file: string,
  tree: Tree,
  isName: (file: string, name: string) => boolean = () => false,
): Map<string, Binding> {
  const bindings = new Map<string, Binding>();
  for (const statement of listImports(tree)) {
    const absolute = absoluteModule(index, file, statement.module);
    if (absolute === null) continue;
    if (statement.kind === "import") {
      const aliased = statement.names[0];
      if (aliased?.alias) bindings.set(aliased.alias, { kind: "module", module: absolute, line: statement.line });
      else
        bindings.set(absolute.split(".")[0]!, {
          kind: "module",
          module: absolute.split(".")[0]!,
          line: statement.line,
        });
      continue;
    }
    const from = absolute === "" ? null : moduleFile(index, absolute);
    for (const imported of statement.names) {
      if (imported.name === "*") continue;
      const local = imported.alias ?? imported.name;
      const submodule = absolute ? `${absolute}.${imported.name}` : imported.name;
      if (from !== null && isName(from, imported.name))
        bindings.set(local, { kind: "name", file: from, name: imported.name, line: statement.line });
      else if (moduleFile(index, submodule) !== null)
        bindings.set(local, { kind: "module", module: submodule, line: statement.line });
      else if (from !== null)
        bindings.set(local, { kind: "name", file: from, name: imported.name, line: statement.line });
    }
  }
  return bindings;
}

/** The (file, name) a dotted chain reaches through a module binding: `pkg.mod.fn` -> (pkg/mod.py, fn). */
export function chainTarget(
  index: ModuleIndex,
  binding: Binding,
  rest: readonly string[],
): { file: string; name: string; depth: number } | null {
  if (binding.kind === "name") return { file: binding.file, name: binding.name, depth: 0 };
  let dotted = binding.module;
  for (let i = 0; i < rest.length; i++) {
    const next = `${dotted}.${rest[i]}`;
    if (moduleFile(index, next) !== null) {
      dotted = next;
      continue;
    }
    const file = moduleFile(index, dotted);
    return file === null ? null : { file, name: rest[i]!, depth: i + 1 };
  }
  return null;
}

/** Names a module's wildcard and `from` imports re-export, grown until nothing changes. */
function exportedNames(index: ModuleIndex, trees: ReadonlyMap<string, Tree>, target: SymbolTarget): Set<string> {
  const exported = new Set([key(target.file, target.name)]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [file, tree] of trees) {
      for (const statement of listImports(tree)) {
        if (statement.kind !== "from" || statement.guarded) continue;
        const absolute = absoluteModule(index, file, statement.module);
        const from = absolute ? moduleFile(index, absolute) : null;
        if (from === null) continue;
        for (const imported of statement.names) {
          const names = imported.name === "*" ? [target.name] : [imported.name];
          for (const name of names) {
            const local = imported.name === "*" ? name : (imported.alias ?? name);
            if (exported.has(key(from, name)) && !exported.has(key(file, local))) {
              exported.add(key(file, local));
              grew = true;
            }
          }
        }
      }
    }
  }
  return exported;
}

const isDefinitionName = (node: Node) => {
  const parent = node.parent;
  if (!parent) return false;
  if (
    (parent.type === "function_definition" || parent.type === "class_definition") &&
    parent.childForFieldName("name")?.id === node.id
  )
    return true;
  if (parent.type === "keyword_argument" && parent.childForFieldName("name")?.id === node.id) return true;
  // `x.name` where `x` is no chain of names (a call, a subscript): the attribute is no use of `name`.
  if (parent.type === "attribute" && parent.childForFieldName("attribute")?.id === node.id) return true;
  if (parent.type === "default_parameter" || parent.type === "typed_default_parameter")
    return parent.childForFieldName("name")?.id === node.id;
  return [
    "parameters",
    "lambda_parameters",
    "typed_parameter",
    "list_splat_pattern",
    "dictionary_splat_pattern",
  ].includes(parent.type);
};

const isImportStatement = (node: Node) =>
  node.type === "import_statement" || node.type === "import_from_statement" || node.type === "future_import_statement";

/** Every reference to `target` in the modules given (relative path -> parsed tree). */
export function findReferences(
  index: ModuleIndex,
  trees: ReadonlyMap<string, Tree>,
  target: SymbolTarget,
): Reference[] {
  const exported = exportedNames(index, trees, target);
  const references: Reference[] = [];
  for (const [file, tree] of [...trees].sort(([a], [b]) => a.localeCompare(b))) {
    const lines = tree.rootNode.text.split("\n");
    const add = (line: number, kind: Reference["kind"]) =>
      references.push({ file, line, kind, text: (lines[line - 1] ?? "").trim() });
    const isExported = (f: string, n: string) => exported.has(key(f, n));
    const bindings = importBindings(index, file, tree, isExported);
    const reExport = path.posix.basename(file) === "__init__.py" ? "re-export" : "import";
    for (const statement of listImports(tree)) {
      const absolute = absoluteModule(index, file, statement.module);
      const from = absolute ? moduleFile(index, absolute) : null;
      if (statement.kind !== "from" || from === null) continue;
      if (target.member !== undefined) continue;
      if (statement.names.some((n) => (n.name === "*" ? isExported(from, target.name) : isExported(from, n.name))))
        add(statement.line, reExport);
    }
    const refersToTarget = (found: { file: string; name: string } | null) =>
      found !== null && isExported(found.file, found.name);
    const kindAt = (node: Node): Reference["kind"] =>
      node.parent?.type === "call" && node.parent.childForFieldName("function")?.id === node.id ? "call" : "use";

    const visit = (node: Node, shadowed = false) => {
      if (isImportStatement(node)) return;
      if (node.type === "function_definition" || node.type === "lambda") {
        // Defaults and annotations are evaluated outside the function: only its body is shadowed.
        const body = node.childForFieldName("body");
        const inner = shadowed || bindsParameter(node, target);
        for (const child of node.namedChildren) if (child) visit(child, child.id === body?.id ? inner : shadowed);
        return;
      }
      const parts = node.type === "attribute" ? dottedParts(node) : null;
      if (parts) {
        const line = node.startPosition.row + 1;
        if (target.member !== undefined) {
          if (parts.at(-1) === target.member) add(line, "attribute");
          else visitChildren(node);
          return;
        }
        const binding = bindings.get(parts[0]!);
        const reached = binding ? chainTarget(index, binding, parts.slice(1)) : null;
        if (reached && refersToTarget(reached)) add(line, "attribute");
        else if (!binding && !shadowed && isExported(file, parts[0]!)) add(line, "attribute");
        return;
      }
      if (node.type === "attribute" && target.member !== undefined) {
        if (node.childForFieldName("attribute")?.text === target.member) add(node.startPosition.row + 1, "attribute");
      }
      if (node.type === "identifier" && !isDefinitionName(node)) {
        const name = node.text;
        const binding = bindings.get(name);
        const local =
          target.member === undefined ? isExported(file, name) : name === target.member && file === target.file;
        if (target.member === undefined && binding?.kind === "name" && refersToTarget(binding))
          add(node.startPosition.row + 1, kindAt(node));
        else if (!binding && local && !shadowed) add(node.startPosition.row + 1, kindAt(node));
      }
      if (node.type === "string" && target.member === undefined && isExported(file, node.text.slice(1, -1))) {
        if (node.text.slice(1, -1) === target.name && insideAll(node)) add(node.startPosition.row + 1, "__all__");
      }
      visitChildren(node, shadowed);
    };
    const visitChildren = (node: Node, shadowed = false) => {
      for (const child of node.namedChildren) if (child) visit(child, shadowed);
    };
    visit(tree.rootNode);
  }
  return references;
}

/** Whether a function's (or lambda's) parameters rebind the target's name inside it. */
function bindsParameter(fn: Node, target: SymbolTarget): boolean {
  if (target.member !== undefined) return false;
  const parameters = fn.childForFieldName("parameters");
  for (const parameter of parameters?.namedChildren ?? []) {
    if (!parameter) continue;
    const name =
      parameter.type === "identifier"
        ? parameter
        : (parameter.childForFieldName("name") ?? parameter.namedChildren.find((c) => c?.type === "identifier"));
    if (name?.text === target.name) return true;
  }
  return false;
}

/** Whether a string sits in the value of an `__all__ = [...]` (or `+=`) assignment. */
function insideAll(node: Node): boolean {
  for (let up = node.parent; up; up = up.parent) {
    if (up.type === "assignment" || up.type === "augmented_assignment")
      return up.childForFieldName("left")?.text === "__all__";
  }
  return false;
}
