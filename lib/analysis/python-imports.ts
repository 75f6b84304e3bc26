/**
 * The import statements of a Python module, and their resolution against a repository's files:
 * the benchmark plants files whose imports cannot resolve and finds a function's dependents.
 */
import path from "node:path";
import type { Node, Tree } from "web-tree-sitter";
import stdlib from "./python-stdlib-modules.json";

export interface ImportedName {
  name: string;
  alias: string | null;
}

export interface ImportStatement {
  /** `import a.b as c` -> kind "import", module "a.b"; `from ..x import y` -> kind "from", module "..x". */
  kind: "import" | "from";
  module: string;
  names: ImportedName[];
  line: number;
  /** Inside a try block (optional imports) or a function (lazy imports). */
  guarded: boolean;
}

export function listImports(tree: Tree): ImportStatement[] {
  const found: ImportStatement[] = [];
  const visit = (node: Node, guarded: boolean) => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "import_statement") {
        for (const item of child.namedChildren) {
          if (!item) continue;
          const dotted = item.type === "aliased_import" ? item.childForFieldName("name") : item;
          const alias = item.type === "aliased_import" ? (item.childForFieldName("alias")?.text ?? null) : null;
          if (dotted)
            found.push({ kind: "import", module: dotted.text, names: [], line: child.startPosition.row + 1, guarded });
          if (dotted && alias) found.at(-1)!.names.push({ name: dotted.text, alias });
        }
      } else if (child.type === "import_from_statement") {
        const moduleNode = child.childForFieldName("module_name");
        const names: ImportedName[] = [];
        for (const item of child.childrenForFieldName("name")) {
          if (!item) continue;
          if (item.type === "aliased_import") {
            names.push({
              name: item.childForFieldName("name")?.text ?? "",
              alias: item.childForFieldName("alias")?.text ?? null,
            });
          } else names.push({ name: item.text, alias: null });
        }
        if (child.namedChildren.some((c) => c?.type === "wildcard_import")) names.push({ name: "*", alias: null });
        found.push({ kind: "from", module: moduleNode?.text ?? "", names, line: child.startPosition.row + 1, guarded });
      } else if (child.type === "future_import_statement") {
        continue;
      } else {
        const isGuard = child.type === "try_statement" || child.type === "function_definition";
        visit(child, guarded || isGuard);
      }
    }
  };
  visit(tree.rootNode, false);
  return found;
}

/** What a repository looks like to the import system: its Python files, by relative path. */
export interface ModuleIndex {
  files: ReadonlySet<string>;
  /** Folders whose contents are importable top-level names (the repo root, or `src/`). */
  roots: readonly string[];
}

/** The file a dotted module name maps to under one of the roots, if any (`a/b.py` or `a/b/__init__.py`). */
export function moduleFile(index: ModuleIndex, dotted: string): string | null {
  const rel = dotted.split(".").join("/");
  for (const root of index.roots) {
    const base = root === "" ? rel : `${root}/${rel}`;
    if (index.files.has(`${base}.py`)) return `${base}.py`;
    if (index.files.has(`${base}/__init__.py`)) return `${base}/__init__.py`;
  }
  return null;
}

/** Whether a top-level name is one of the repository's own packages or modules. */
export function isRepoTopLevel(index: ModuleIndex, name: string): boolean {
  return (
    moduleFile(index, name) !== null ||
    index.roots.some((root) => hasFolder(index, root === "" ? name : `${root}/${name}`))
  );
}

function hasFolder(index: ModuleIndex, folder: string): boolean {
  const prefix = `${folder}/`;
  for (const file of index.files) if (file.startsWith(prefix)) return true;
  return false;
}

/** The absolute dotted module of a `from` import in `fromFile` (relative dots resolved), or null. */
export function absoluteModule(index: ModuleIndex, fromFile: string, module: string): string | null {
  const dots = /^\.*/.exec(module)?.[0].length ?? 0;
  if (dots === 0) return module;
  const root = index.roots.find((r) => r === "" || fromFile.startsWith(`${r}/`)) ?? "";
  const relDir = path.posix.dirname(root === "" ? fromFile : fromFile.slice(root.length + 1));
  const parts = relDir === "." ? [] : relDir.split("/");
  if (dots - 1 > parts.length) return null;
  const base = parts.slice(0, parts.length - (dots - 1));
  const rest = module.slice(dots);
  return [...base, ...(rest ? rest.split(".") : [])].join(".");
}

export interface UnresolvedImport {
  statement: ImportStatement;
  reason: string;
}

const STANDARD_LIBRARY: ReadonlySet<string> = new Set(stdlib.modules);

/** Whether a top-level module name is CPython 3's standard library (python-stdlib-modules.json). */
export function isStandardLibrary(top: string): boolean {
  return STANDARD_LIBRARY.has(top);
}

/**
 * Imports that resolve nowhere. Relative imports, and absolute ones under one of the repository's
 * top-level packages, must reach a file or package of the repository. Any other absolute import
 * must name the standard library or, when `isDependency` is given, one of the repository's
 * declared dependencies (by top-level import name); without it other imports are not judged.
 */
export function unresolvedImports(
  index: ModuleIndex,
  fromFile: string,
  imports: readonly ImportStatement[],
  isDependency: ((top: string) => boolean) | null = null,
): UnresolvedImport[] {
  const problems: UnresolvedImport[] = [];
  for (const statement of imports) {
    if (statement.guarded) continue;
    const relative = statement.module.startsWith(".");
    const absolute = absoluteModule(index, fromFile, statement.module);
    if (absolute === null) {
      problems.push({ statement, reason: `relative import "${statement.module}" goes above the package root` });
      continue;
    }
    const top = absolute.split(".")[0] ?? "";
    if (!relative && !isRepoTopLevel(index, top)) {
      if (isDependency && !isStandardLibrary(top) && !isDependency(top)) {
        problems.push({
          statement,
          reason: `imports "${top}": not in the repository, the standard library or its declared dependencies`,
        });
      }
      continue;
    }
    if (absolute === "") {
      // `from . import x`: each name must be a module of the package (or be defined in its __init__).
      continue;
    }
    const target = moduleFile(index, absolute);
    if (target) continue;
    // `from a.b import c` where a.b is a package folder without __init__ (namespace package).
    const folderExists = index.roots.some((root) =>
      hasFolder(index, [root, absolute.split(".").join("/")].filter(Boolean).join("/")),
    );
    if (folderExists) continue;
    problems.push({ statement, reason: `module "${absolute}" is not in the repository` });
  }
  return problems;
}
