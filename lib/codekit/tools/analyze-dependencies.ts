/**
 * analyze_dependencies: what a file (or one function of it) imports and uses, each import resolved
 * to a repository file, the standard library or a third-party package, ending with the repository
 * files to read before editing.
 */
import type { Node } from "web-tree-sitter";
import { listDefinitions } from "@/lib/analysis/python-definitions";
import {
  absoluteModule,
  isRepoTopLevel,
  isStandardLibrary,
  listImports,
  moduleFile,
  type ImportStatement,
} from "@/lib/analysis/python-imports";
import { chainTarget, dottedParts, importBindings } from "@/lib/analysis/python-references";
import type { ToolSpec } from "@/lib/llm/chat";
import type { AnalyzeDependenciesArgs } from "../schema";
import { resolveDefinition, sourceFile, type Workspace } from "../workspace";
import { PATH_PARAM, QUALNAME_PARAM } from "./params";

export const ANALYZE_DEPENDENCIES: ToolSpec = {
  name: "analyze_dependencies",
  description:
    "List what a Python file, or one function or method in it, imports and uses, resolved to repository files (or standard library / third-party), and the repository files to read before editing it.",
  parameters: {
    type: "object",
    properties: {
      path: PATH_PARAM,
      function: { ...QUALNAME_PARAM, description: `Optional: only this function. ${QUALNAME_PARAM.description}` },
    },
    required: ["path"],
  },
};

type Workspaceish = Pick<Workspace, "index">;

/** Where each import of `file` leads: repository files, or the kind of module it names. */
function resolveImport(workspace: Workspaceish, file: string, statement: ImportStatement): string[] {
  const absolute = absoluteModule(workspace.index, file, statement.module);
  if (absolute === null) return ["unresolved (relative import above the package root)"];
  const top = absolute.split(".")[0] ?? "";
  if (!statement.module.startsWith(".") && !isRepoTopLevel(workspace.index, top))
    return [isStandardLibrary(top) ? "standard library" : "third-party"];
  const files = new Set<string>();
  const own = absolute === "" ? null : moduleFile(workspace.index, absolute);
  for (const imported of statement.names) {
    const sub = moduleFile(workspace.index, absolute ? `${absolute}.${imported.name}` : imported.name);
    if (sub) files.add(sub);
    else if (own) files.add(own);
  }
  if (statement.kind === "import" && own) files.add(own);
  return files.size > 0 ? [...files] : ["unresolved (not in the repository)"];
}

const describeImport = (s: ImportStatement) =>
  s.kind === "import"
    ? `import ${s.module}${s.names[0]?.alias ? ` as ${s.names[0].alias}` : ""}`
    : `from ${s.module} import ${s.names.map((n) => (n.alias ? `${n.name} as ${n.alias}` : n.name)).join(", ")}`;

export async function analyzeDependencies(workspace: Workspace, args: AnalyzeDependenciesArgs): Promise<string> {
  const file = await sourceFile(workspace, args.path);
  const tree = await workspace.parse(file.rel);
  const toRead = new Set<string>([file.rel]);
  const out: string[] = [];
  if (args.function === undefined) {
    out.push(`Imports of ${file.rel}:`);
    for (const statement of listImports(tree)) {
      const where = resolveImport(workspace, file.rel, statement);
      for (const w of where) if (workspace.index.files.has(w)) toRead.add(w);
      out.push(`  line ${statement.line}: ${describeImport(statement)} -> ${where.join(", ")}`);
    }
  } else {
    const definition = resolveDefinition(tree, file.rel, args.function, ["function", "method"]);
    const bindings = importBindings(workspace.index, file.rel, tree);
    const local = new Map(
      listDefinitions(tree)
        .filter((d) => !d.qualifiedName.includes("."))
        .map((d) => [d.name, d.defLine]),
    );
    const used = new Map<string, string>();
    const ownName = definition.node.childForFieldName("name")?.id;
    const visit = (node: Node) => {
      if (node.id === ownName) return;
      const parts = dottedParts(node);
      if (parts) {
        const binding = bindings.get(parts[0]!);
        if (binding) {
          const reached = chainTarget(workspace.index, binding, parts.slice(1));
          const target =
            reached?.file ?? (binding.kind === "module" ? moduleFile(workspace.index, binding.module) : null);
          const name = reached ? parts.slice(0, reached.depth + 1).join(".") : parts[0]!;
          if (target) {
            used.set(name, `${target} (imported at line ${binding.line})`);
            toRead.add(target);
          } else {
            const top = (binding.kind === "module" ? binding.module : name).split(".")[0]!;
            const kind = isStandardLibrary(top) ? "standard library" : "outside the repository";
            used.set(name, `${kind} (imported at line ${binding.line})`);
          }
        } else if (local.has(parts[0]!)) used.set(parts[0]!, `${file.rel}:${local.get(parts[0]!)} (same file)`);
        return;
      }
      for (const child of node.namedChildren) if (child) visit(child);
    };
    visit(definition.outer);
    out.push(`Names ${definition.qualifiedName} (${file.rel}:${definition.defLine}) uses from imports and its module:`);
    if (used.size === 0) out.push("  none");
    for (const [name, where] of [...used].sort()) out.push(`  ${name} -> ${where}`);
  }
  out.push(`Files to read before editing: ${[...toRead].join(", ")}`);
  return out.join("\n");
}
