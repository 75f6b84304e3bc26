/**
 * The dotted module a Python file is imported as, from its workspace path: `pkg/sub/mod.py` is
 * `pkg.sub.mod`, a package's `__init__.py` is the package, and a `src/` layout's folder is not
 * part of the name.
 */
export function moduleOfPath(path: string): string {
  return path
    .replace(/^src\//, "")
    .replace(/\.py$/, "")
    .replace(/\/__init__$/, "")
    .replace(/\//g, ".");
}
