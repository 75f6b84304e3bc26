/**
 * The repository a Code-KIT tool works on: a root folder, its Python files read without following
 * links (untrusted-walk), each bounded in size, parsed on demand with tree-sitter, and the model's
 * paths and qualified names resolved strictly, refusing rather than guessing.
 */
import type { Tree } from "web-tree-sitter";
import { AppError } from "@/lib/errors/app-error";
import type { ModuleIndex } from "@/lib/analysis/python-imports";
import { parsePython } from "@/lib/analysis/python-parser";
import { listDefinitions, type PythonDefinition } from "@/lib/analysis/python-definitions";
import { formatTargetName, parseTargetName } from "@/lib/analysis/target-name";
import { closeQuietly, describeKind, readOpened } from "@/lib/util/untrusted-files";
import { walkUntrusted } from "@/lib/util/untrusted-walk";
import { readResolved, resolveWorkspacePath, textOf, workspaceRootOf, type WorkspaceRoot } from "@/lib/workspace/paths";
import type { GuardRules } from "@/lib/workspace/guard";

/** A Python file larger than this is left out (generated tables, vendored bundles). */
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;
/** A repository with more Python files than this is refused: the tools would answer too slowly. */
export const MAX_SOURCE_FILES = 5000;
/** Folders that hold no source of the repository. */
const SKIPPED_FOLDERS = new Set([".git", "__pycache__", "node_modules", ".venv", "venv", ".tox", ".mypy_cache"]);

export interface Workspace {
  root: WorkspaceRoot;
  /** The sandbox guard's rules (the `guard` arm): the write tools refuse what they do not allow. */
  guard: GuardRules | null;
  index: ModuleIndex;
  sources: ReadonlyMap<string, string>;
  parse(file: string): Promise<Tree>;
  trees(): Promise<Map<string, Tree>>;
  /** Frees the parsed trees (tree-sitter's memory lives in its WebAssembly heap, outside the GC). */
  close(): Promise<void>;
}

export async function openWorkspace(rootDir: string, guard: GuardRules | null = null): Promise<Workspace> {
  const root = await workspaceRootOf(rootDir).catch(() => {
    throw new AppError("NOT_FOUND", `The workspace ${rootDir} does not exist.`);
  });
  const sources = new Map<string, string>();
  await walkUntrusted(root.real, "", async (entry) => {
    if (entry.kind !== "file" || !entry.rel.endsWith(".py")) return;
    if (entry.rel.split("/").some((part) => SKIPPED_FOLDERS.has(part))) return;
    if (sources.size >= MAX_SOURCE_FILES)
      throw new AppError("TOO_LARGE", `The workspace has more than ${MAX_SOURCE_FILES} Python files.`);
    const opened = entry.open();
    if (!opened.ok) return;
    try {
      const read = await readOpened(opened, entry.rel, { maxBytes: MAX_SOURCE_BYTES, refuseLarger: true });
      const text = read.ok ? textOf(read.data) : null;
      if (text !== null) sources.set(entry.rel, text);
    } finally {
      closeQuietly(opened.fd);
    }
  });
  const files = new Set(sources.keys());
  const roots = [...files].some((f) => f.startsWith("src/")) ? ["src", ""] : [""];
  const cache = new Map<string, Promise<Tree>>();
  const parse = (file: string) => {
    const source = sources.get(file);
    if (source === undefined) throw new AppError("NOT_FOUND", `${file} is not a Python file of the workspace.`);
    let tree = cache.get(file);
    if (!tree) cache.set(file, (tree = parsePython(source)));
    return tree;
  };
  return {
    root,
    guard,
    index: { files, roots },
    sources,
    parse,
    async trees() {
      const all = new Map<string, Tree>();
      for (const file of [...files].sort()) all.set(file, await parse(file));
      return all;
    },
    async close() {
      const trees = await Promise.allSettled(cache.values());
      cache.clear();
      for (const tree of trees) if (tree.status === "fulfilled") tree.value.delete();
    },
  };
}

/** A Python file the model named: inside the workspace, a regular file, read within bounds. */
export async function sourceFile(
  workspace: Workspace,
  input: string,
): Promise<{ rel: string; abs: string; text: string }> {
  const target = await resolveWorkspacePath(workspace.root, input);
  if (!target.rel.endsWith(".py")) throw new AppError("INVALID_INPUT", `${input} is not a Python (.py) file.`);
  const read = await readResolved(target, MAX_SOURCE_BYTES);
  if (!read.ok) {
    // The reader's own reason names the host path: say it with the model's.
    const why = read.kind === "file" ? `${input} is over ${MAX_SOURCE_BYTES} bytes` : describeKind(input, read.kind);
    throw new AppError("INVALID_INPUT", `Cannot read ${input}: ${why}.`);
  }
  const text = textOf(read.data);
  if (text === null) throw new AppError("INVALID_INPUT", `${input} is not UTF-8 text.`);
  return { rel: target.rel, abs: target.abs, text };
}

/**
 * The definition `qualname` names in a parsed file: exact qualified name only, `name#n` for the
 * n-th of several. Two definitions of one name without `#n`, a missing one or a wrong `#n` are
 * refused with the names the model can use instead.
 */
export function resolveDefinition(
  tree: Tree,
  file: string,
  qualname: string,
  kinds: readonly PythonDefinition["kind"][] = ["function", "method", "class"],
): PythonDefinition {
  const { qualifiedName, occurrence } = parseTargetName(qualname.trim());
  const explicit = /#\d+$/.test(qualname.trim());
  const definitions = listDefinitions(tree).filter((d) => kinds.includes(d.kind));
  const same = definitions.filter((d) => d.qualifiedName === qualifiedName);
  if (same.length === 0) {
    const name = qualifiedName.split(".").at(-1);
    const near = definitions.filter((d) => d.name === name).map((d) => formatTargetName(d.qualifiedName, d.occurrence));
    const hint = near.length > 0 ? ` Did you mean ${near.join(", ")}?` : "";
    throw new AppError("NOT_FOUND", `No ${kinds.join(" or ")} named ${qualifiedName} in ${file}.${hint}`);
  }
  if (same.length > 1 && !explicit) {
    const options = same.map((d) => `${formatTargetName(d.qualifiedName, d.occurrence)} (line ${d.defLine})`);
    throw new AppError(
      "CONFLICT",
      `${qualifiedName} is defined ${same.length} times in ${file}; name the one you mean as ${options.join(", ")} (use ${qualifiedName}#1 for the first).`,
    );
  }
  const found = same[occurrence - 1];
  if (!found)
    throw new AppError("NOT_FOUND", `${file} has ${same.length} definition(s) of ${qualifiedName}, not ${occurrence}.`);
  return found;
}
