/**
 * Execution caches and VCS data: never part of a snapshot, never created or updated files, never
 * reads or writes against a contract. Dependency-free, so the run page can import it too (the
 * rest of lib/benchmark loads the tree-sitter parser, whose .wasm Turbopack does not bundle).
 */
export const DEFAULT_IGNORED = [
  ".git/",
  ".hg/",
  ".svn/",
  "__pycache__/",
  ".pytest_cache/",
  ".mypy_cache/",
  ".ruff_cache/",
  ".tox/",
  ".venv/",
  "node_modules/",
  ".egg-info/",
  ".coverage",
  ".pyc",
  ".pyo",
  ".DS_Store",
];

export function isIgnoredPath(rel: string, ignored: readonly string[] = DEFAULT_IGNORED): boolean {
  const segments = rel.split("/");
  return ignored.some((pattern) => {
    if (pattern.endsWith("/")) {
      const name = pattern.slice(0, -1);
      return segments.slice(0, -1).some((s) => s === name || (name.startsWith(".") && s.endsWith(name)));
    }
    return rel.endsWith(pattern) || segments.some((s) => s === pattern);
  });
}
