/**
 * A source repository as the benchmark sees it: its files (caches and VCS data left out), its
 * Python module index, and parsed modules on demand.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { Tree } from "web-tree-sitter";
import { parsePython } from "@/lib/analysis/python-parser";
import { moduleFile, type ModuleIndex } from "@/lib/analysis/python-imports";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";

import { isIgnoredPath } from "./ignored-paths";

export { DEFAULT_IGNORED, isIgnoredPath } from "./ignored-paths";

export interface Repository {
  projectPath: string;
  files: WorkspaceFiles;
  index: ModuleIndex;
  /** Files over the size limit, or not regular files, left out of the snapshot. */
  skipped: { path: string; reason: string }[];
  /** Parsed once and cached; `release` frees the trees (they live in wasm memory). */
  parse(file: string): Promise<Tree>;
  release(): void;
  text(file: string): string;
}

export async function readRepository(
  root: string,
  projectPath: string,
  maxFileBytes = 5 * 1024 * 1024,
): Promise<Repository> {
  const files: WorkspaceFiles = new Map();
  const skipped: Repository["skipped"] = [];
  const walk = async (dir: string, prefix: string) => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (isIgnoredPath(entry.isDirectory() ? `${rel}/x` : rel)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, rel);
      else if (entry.isFile()) {
        const stat = await fs.stat(full);
        if (stat.size > maxFileBytes) skipped.push({ path: rel, reason: `${stat.size} bytes, over ${maxFileBytes}` });
        else files.set(rel, { data: await fs.readFile(full), mode: stat.mode & 0o111 ? 0o100755 : 0o100644 });
      } else skipped.push({ path: rel, reason: "not a regular file" });
    }
  };
  await walk(root, "");
  return repositoryOf(projectPath, files, skipped);
}

export function repositoryOf(
  projectPath: string,
  files: WorkspaceFiles,
  skipped: Repository["skipped"] = [],
): Repository {
  const pyFiles = new Set([...files.keys()].filter((f) => f.endsWith(".py")));
  // Packages live at the root, or under src/ (the "src layout").
  const roots = [...pyFiles].some((f) => f.startsWith("src/")) ? ["src", ""] : [""];
  const trees = new Map<string, Promise<Tree>>();
  const repo: Repository = {
    projectPath,
    files,
    index: { files: pyFiles, roots },
    skipped,
    text(file) {
      const entry = files.get(file);
      if (!entry) throw new Error(`${projectPath}: no file ${file}`);
      return entry.data.toString("utf8");
    },
    release() {
      for (const tree of trees.values()) void tree.then((t) => t.delete());
      trees.clear();
    },
    parse(file) {
      let tree = trees.get(file);
      if (!tree) {
        tree = parsePython(repo.text(file));
        trees.set(file, tree);
      }
      return tree;
    },
  };
  return repo;
}

/**
 * The file a dependency namespace (`pkg.mod.Class.method`) lives in: the longest dotted prefix
 * that is a module of the repository.
 */
export function fileOfNamespace(index: ModuleIndex, namespace: string): string | null {
  const parts = namespace.split(".");
  for (let n = parts.length; n >= 1; n--) {
    const file = moduleFile(index, parts.slice(0, n).join("."));
    if (file) return file;
  }
  return null;
}
