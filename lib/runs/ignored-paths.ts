/**
 * Execution caches and VCS data, which never count as reads or writes against the contract.
 * A copy of DEFAULT_IGNORED / isIgnoredPath in lib/benchmark/repository.ts, which the run page
 * cannot import: that module loads the tree-sitter parser, whose .wasm Turbopack does not bundle.
 * ignored-paths.test.ts fails if the two drift apart; moving the list into a dependency-free
 * module of lib/benchmark would let both import one copy.
 */
export const IGNORED_PATTERNS = [
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
] as const;

export function isIgnoredWorkspacePath(rel: string): boolean {
  const segments = rel.split("/");
  return IGNORED_PATTERNS.some((pattern) => {
    if (pattern.endsWith("/")) {
      const name = pattern.slice(0, -1);
      return segments.slice(0, -1).some((s) => s === name || (name.startsWith(".") && s.endsWith(name)));
    }
    return rel.endsWith(pattern) || segments.some((s) => s === pattern);
  });
}
