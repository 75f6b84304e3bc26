/**
 * trace_references: every reference to a symbol across the repository, with file and line. The
 * symbol is a dotted name (`pkg.mod.fn`, `pkg.mod.Class.method`) or a qualified name with the
 * file that defines it; a bare name defined in several files is refused until one is named.
 */
import { AppError } from "@/lib/errors/app-error";
import { listDefinitions } from "@/lib/analysis/python-definitions";
import { moduleFile } from "@/lib/analysis/python-imports";
import { findReferences, type Reference } from "@/lib/analysis/python-references";
import { parseTargetName } from "@/lib/analysis/target-name";
import type { ToolSpec } from "@/lib/llm/chat";
import type { TraceReferencesArgs } from "../schema";
import { resolveDefinition, sourceFile, type Workspace } from "../workspace";

export const TRACE_REFERENCES: ToolSpec = {
  name: "trace_references",
  description:
    "List every reference to a function, class or method across the repository (imports, re-exports, calls, attribute chains such as pkg.mod.fn, __all__ entries), with file and line. Use it before renaming, moving or removing a definition.",
  parameters: {
    type: "object",
    properties: {
      symbol: {
        type: "string",
        description:
          "A dotted name such as pkg.mod.fn or pkg.mod.Class.method, or a qualified name (fn, Class.method) together with path",
      },
      path: { type: "string", description: "The Python file that defines the symbol, relative to the workspace root" },
    },
    required: ["symbol"],
  },
};

export interface TracedSymbol {
  file: string;
  qualifiedName: string;
  line: number;
  references: Reference[];
}

/** Where a symbol is defined: in `path` when given, else by its module prefix, else the one file defining it. */
async function locate(workspace: Workspace, args: TraceReferencesArgs): Promise<{ file: string; qualname: string }> {
  if (args.path !== undefined) return { file: (await sourceFile(workspace, args.path)).rel, qualname: args.symbol };
  const parts = parseTargetName(args.symbol).qualifiedName.split(".");
  for (let i = parts.length - 1; i >= 1; i--) {
    const file = moduleFile(workspace.index, parts.slice(0, i).join("."));
    if (file !== null) return { file, qualname: parts.slice(i).join(".") };
  }
  const files: string[] = [];
  for (const [file, tree] of await workspace.trees())
    if (listDefinitions(tree).some((d) => d.qualifiedName === args.symbol)) files.push(file);
  if (files.length === 1) return { file: files[0]!, qualname: args.symbol };
  if (files.length === 0)
    throw new AppError(
      "NOT_FOUND",
      `No module of the workspace defines ${args.symbol}. Give its dotted module path (pkg.mod.${args.symbol}) or the file that defines it as path.`,
    );
  throw new AppError(
    "CONFLICT",
    `${args.symbol} is defined in ${files.length} files (${files.join(", ")}); say which one with path, or use its dotted module path.`,
  );
}

export async function traceSymbol(workspace: Workspace, file: string, qualname: string): Promise<TracedSymbol> {
  // Every definition of one name has the same references: tracing needs no `#n`.
  const first = /#\d+$/.test(qualname.trim()) ? qualname : `${qualname.trim()}#1`;
  const definition = resolveDefinition(await workspace.parse(file), file, first);
  const parts = definition.qualifiedName.split(".");
  const references = findReferences(workspace.index, await workspace.trees(), {
    file,
    name: parts[0]!,
    member: parts.length > 1 ? parts.at(-1) : undefined,
  });
  return { file, qualifiedName: definition.qualifiedName, line: definition.defLine, references };
}

export function formatReferences(references: readonly Reference[]): string {
  return references.map((r) => `${r.file}:${r.line} ${r.kind}: ${r.text}`).join("\n");
}

export async function traceReferences(workspace: Workspace, args: TraceReferencesArgs): Promise<string> {
  const { file, qualname } = await locate(workspace, args);
  const traced = await traceSymbol(workspace, file, qualname);
  const where = `${traced.qualifiedName} (defined in ${traced.file}:${traced.line})`;
  const method = traced.qualifiedName.includes(".")
    ? "\nA method is matched by attribute name: check that each receiver is really this class."
    : "";
  if (traced.references.length === 0) return `No references to ${where} in the workspace.`;
  return `${traced.references.length} reference(s) to ${where}:${method}\n${formatReferences(traced.references)}`;
}
