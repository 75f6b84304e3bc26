/**
 * The scripted agents' clean move of a module-level function to another file, done as a careful
 * developer would: the function arrives with the imports it needs (the names it uses that the
 * source module imports, or defines itself, imported from there), and the source imports it back
 * in its place, so the source's own uses and its dependents keep working.
 */
import type { Node, Parser } from "web-tree-sitter";
import { loadPythonParser } from "@/lib/analysis/python-parser";
import { moduleOfPath } from "@/lib/util/python-module";

let parser: Parser | null = null;

/** Loads the Python grammar; the scripts are built synchronously, so this is awaited once before. */
export async function loadScriptedMoveParser(): Promise<void> {
  parser = await loadPythonParser();
}

/** What binds a module-level name: an import statement to repeat, or a definition of the module itself. */
type Binding = { kind: "import"; statement: string } | { kind: "local" };

const DEFINITIONS = new Set(["function_definition", "class_definition"]);
const COMPOUND = new Set(["try_statement", "if_statement", "with_statement"]);

/** Names a compound statement binds in its blocks: assignments, imports and definitions, at any depth of blocks. */
function boundInside(node: Node): string[] {
  const names: string[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (DEFINITIONS.has(child.type)) names.push(child.childForFieldName("name")?.text ?? "");
    else if (child.type === "import_statement" || child.type === "import_from_statement") {
      for (const item of child.type === "import_statement" ? child.namedChildren : child.childrenForFieldName("name")) {
        if (!item) continue;
        const alias = item.type === "aliased_import" ? item.childForFieldName("alias")?.text : undefined;
        const dotted = (item.type === "aliased_import" ? item.childForFieldName("name") : item)?.text ?? "";
        names.push(alias ?? (child.type === "import_statement" ? dotted.split(".")[0]! : dotted));
      }
    } else if (child.type === "expression_statement") {
      const assignment = child.namedChildren[0];
      const left = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null;
      if (left) names.push(...assignedNames(left));
    } else if (!["function_definition", "class_definition", "decorated_definition"].includes(child.type))
      names.push(...boundInside(child));
  }
  return names.filter((n) => n !== "");
}

/** `..mod` seen from `pkg/sub/file.py` -> `pkg.mod`; absolute modules unchanged. */
function absoluteModule(fromFile: string, module: string): string {
  const dots = /^\.*/.exec(module)![0].length;
  if (dots === 0) return module;
  const isPackage = /(^|\/)__init__\.py$/.test(fromFile);
  const parts = moduleOfPath(fromFile).split(".");
  const base = parts.slice(0, parts.length - (isPackage ? 0 : 1) - (dots - 1));
  const rest = module.slice(dots);
  return [...base, ...(rest ? [rest] : [])].join(".");
}

function assignedNames(node: Node): string[] {
  if (node.type === "identifier") return [node.text];
  if (["pattern_list", "tuple_pattern", "list_pattern"].includes(node.type))
    return node.namedChildren.flatMap((c) => (c ? assignedNames(c) : []));
  return [];
}

/** The names a module's top level binds, and by what. */
function moduleBindings(root: Node, file: string): Map<string, Binding> {
  const bindings = new Map<string, Binding>();
  const importsOf = (statement: Node) => {
    if (statement.type === "import_statement") {
      for (const item of statement.namedChildren) {
        if (!item) continue;
        const alias = item.type === "aliased_import" ? item.childForFieldName("alias")?.text : undefined;
        const dotted = (item.type === "aliased_import" ? item.childForFieldName("name") : item)?.text ?? "";
        const bound = alias ?? dotted.split(".")[0]!;
        bindings.set(bound, {
          kind: "import",
          statement: `import ${dotted}${alias ? ` as ${alias}` : ""}`,
        });
      }
    } else if (statement.type === "import_from_statement") {
      const moduleName = absoluteModule(file, statement.childForFieldName("module_name")?.text ?? "");
      for (const item of statement.childrenForFieldName("name")) {
        if (!item) continue;
        const name = (item.type === "aliased_import" ? item.childForFieldName("name") : item)?.text ?? "";
        const alias = item.type === "aliased_import" ? item.childForFieldName("alias")?.text : undefined;
        const line = `from ${moduleName} import ${name}${alias ? ` as ${alias}` : ""}`;
        bindings.set(alias ?? name, { kind: "import", statement: line });
      }
    }
  };
  for (const statement of root.namedChildren) {
    if (!statement) continue;
    const definition =
      statement.type === "decorated_definition" ? statement.childForFieldName("definition") : statement;
    if (definition && DEFINITIONS.has(definition.type)) {
      const name = definition.childForFieldName("name")?.text;
      if (name) bindings.set(name, { kind: "local" });
    } else if (statement.type === "import_statement" || statement.type === "import_from_statement") {
      importsOf(statement);
    } else if (COMPOUND.has(statement.type)) {
      // Bound inside `try:` / `if:` (`except NameError: unichr = chr`): imported from the source, where it is bound.
      for (const name of boundInside(statement)) bindings.set(name, { kind: "local" });
    } else if (statement.type === "expression_statement") {
      const assignment = statement.namedChildren[0];
      const left = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null;
      for (const name of left ? assignedNames(left) : []) bindings.set(name, { kind: "local" });
    }
  }
  return bindings;
}

/** Every identifier the code reads or writes, attribute names (`x.attr`) and keyword names aside. */
function usedNames(root: Node): Set<string> {
  const names = new Set<string>();
  const visit = (node: Node) => {
    if (node.type === "identifier") {
      const parent = node.parent;
      const isAttribute = parent?.type === "attribute" && parent.childForFieldName("attribute")?.id === node.id;
      const isKeyword = parent?.type === "keyword_argument" && parent.childForFieldName("name")?.id === node.id;
      if (!isAttribute && !isKeyword) names.add(node.text);
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return names;
}

function parse<T>(source: string, read: (root: Node) => T): T {
  if (!parser) throw new Error("the scripted mover's parser is not loaded (await loadScriptedMoveParser())");
  const tree = parser.parse(source);
  if (!tree) throw new Error("tree-sitter returned no tree");
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/** The workspace modules a module's imports name (`a.b` also imports `a`), by file path. */
function importedFiles(file: string, text: string, files: ReadonlySet<string>): string[] {
  const targets = new Set<string>();
  const add = (dotted: string) => {
    const parts = dotted.split(".");
    for (let n = 1; n <= parts.length; n++) {
      const stem = parts.slice(0, n).join("/");
      for (const candidate of [`${stem}/__init__.py`, `${stem}.py`, `src/${stem}/__init__.py`, `src/${stem}.py`])
        if (files.has(candidate)) targets.add(candidate);
    }
  };
  parse(text, (root) => {
    const visit = (node: Node) => {
      if (node.type === "import_statement") {
        for (const item of node.namedChildren)
          if (item) add((item.type === "aliased_import" ? item.childForFieldName("name") : item)?.text ?? "");
      } else if (node.type === "import_from_statement") {
        const moduleName = absoluteModule(file, node.childForFieldName("module_name")?.text ?? "");
        add(moduleName);
        for (const item of node.childrenForFieldName("name"))
          if (item)
            add(`${moduleName}.${(item.type === "aliased_import" ? item.childForFieldName("name") : item)?.text}`);
      } else for (const child of node.namedChildren) if (child) visit(child);
    };
    visit(root);
  });
  return [...targets];
}

/** Whether importing `from` imports `to` on the way, through the workspace's modules. */
function importsReach(from: string, to: string, modules: ReadonlyMap<string, string>): boolean {
  const files = new Set(modules.keys());
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of importedFiles(file, modules.get(file) ?? "", files)) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

export interface MoveInput {
  source: { path: string; text: string };
  /** The destination as it is; `text` undefined for a new file. */
  destination: { path: string; text: string | undefined };
  name: string;
  /** The function's text exactly as it stands in the source (module level, decorators included). */
  functionText: string;
  /** The workspace's Python files (path -> text), to see whether the destination imports the source. */
  modules: ReadonlyMap<string, string>;
}

/**
 * How the source gets the moved function back, at its end (so everything the destination imports
 * from it is defined by then). When the destination imports the source itself, a plain import
 * would be circular (the source runs while the destination is half imported), and so it is when
 * the destination now imports names of the source for the moved function: the name is then
 * looked up on first use, through the module's `__getattr__` (PEP 562).
 */
function importBack(input: MoveInput, carriesSourceNames: boolean): string {
  const moduleName = moduleOfPath(input.destination.path);
  const circular =
    carriesSourceNames ||
    (input.destination.text !== undefined && importsReach(input.destination.path, input.source.path, input.modules));
  if (!circular) return `from ${moduleName} import ${input.name}\n`;
  return [
    "def __getattr__(name):",
    `    # ${input.name} moved to ${input.destination.path}, which imports this module: imported on first use.`,
    `    if name == ${JSON.stringify(input.name)}:`,
    `        from ${moduleName} import ${input.name}`,
    "",
    `        return ${input.name}`,
    '    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")',
    "",
  ].join("\n");
}

/** The source and the destination after the move. */
export function moveFunction(input: MoveInput): { source: string; destination: string } {
  const { source, destination, name, functionText } = input;
  const bindings = parse(source.text, (root) => moduleBindings(root, source.path));
  const present =
    destination.text === undefined
      ? new Map<string, Binding>()
      : parse(destination.text, (root) => moduleBindings(root, destination.path));
  const lines: string[] = [];
  for (const used of parse(functionText, usedNames)) {
    const binding = bindings.get(used);
    if (used === name || !binding || present.has(used)) continue;
    const line = binding.kind === "import" ? binding.statement : `from ${moduleOfPath(source.path)} import ${used}`;
    if (!lines.includes(line)) lines.push(line);
  }
  const imports = lines.length > 0 ? `${lines.join("\n")}\n\n\n` : "";
  const moved =
    destination.text === undefined
      ? `${imports}${functionText}\n`
      : `${destination.text.trimEnd()}\n\n${imports}${lines.length > 0 ? "" : "\n"}${functionText}\n`;
  const rest = source.text
    .replace(functionText, "")
    .replace(/\n{3,}/g, "\n\n\n")
    .trimEnd();
  const fromSource = `from ${moduleOfPath(source.path)} import `;
  const carriesSourceNames = lines.some((line) => line.startsWith(fromSource));
  return { source: `${rest}\n\n\n${importBack(input, carriesSourceNames)}`, destination: moved };
}
