/**
 * Paths in an agent's steps, resolved the way its shell would and matched exactly against the
 * workspace's files (DESIGN.md "Decisions on edge cases", File Read): `.`, `..` and `//` are
 * resolved lexically against the current directory, an absolute path counts only under the
 * workspace root, and a glob is expanded over the workspace's files. `~` and `$HOME` are outside
 * the workspace. No suffix matching: `vendor/pkg/x.py` is not `pkg/x.py`.
 *
 * When the run does not say where its workspace was (EvaluationInput.workspaceRoot null),
 * `inferWorkspaceRoot` picks it from the absolute paths the agent used: each absolute path that
 * ends in `/<a workspace file>` votes for the prefix before it; the prefix with most votes wins
 * (ties: the shortest). Without votes, a well-known sandbox folder the agent used (/testbed,
 * /workspace, /repo, ...) is taken; failing that the root is VIRTUAL_ROOT, under which relative
 * paths still resolve and absolute ones never match.
 */
import path from "node:path";

/** The workspace root when nothing tells where it was: no real absolute path starts with it. */
export const VIRTUAL_ROOT = "/__workspace__";

/** Folders sandboxes commonly put the repository in, for a root nothing else tells. */
export const WELL_KNOWN_ROOTS = ["/testbed", "/workspace", "/repo", "/app", "/code", "/project", "/src"];

/** Absolute paths that never hold the workspace (interpreters' own files, system folders). */
const SYSTEM_PATH =
  /^\/(?:usr|etc|proc|sys|dev|bin|sbin|lib|lib64|var|opt\/conda)\/|\/(?:site|dist)-packages\/|\/node_modules\//;

/** Where a path the agent wrote points, given the current directory (absolute), or null when unknowable. */
export function resolvePath(cwd: string, written: string): string | null {
  if (written === "") return null;
  if (written === "~" || written.startsWith("~/") || written === "$HOME" || written.startsWith("$HOME/")) {
    return `~${path.posix.normalize(`/${written.replace(/^(~|\$HOME)/, "")}`).replace(/\/$/, "")}`;
  }
  if (written.startsWith("$") || written.startsWith("~")) return null;
  return path.posix.resolve(cwd, written);
}

/** The workspace-relative form of an absolute path, "" for the root itself, null when outside it. */
export function relativeToRoot(absolute: string, root: string): string | null {
  if (absolute === root) return "";
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return absolute.startsWith(prefix) ? absolute.slice(prefix.length) : null;
}

export function isGlobPattern(word: string): boolean {
  return /[*?[]/.test(word) || /\{[^}]*,[^}]*\}/.test(word);
}

/** A shell glob (with `**` for any depth and `{a,b}`) as a regular expression over whole paths. */
export function globToRegExp(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        out += `[${pattern
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "{") {
      const end = pattern.indexOf("}", i);
      if (end < 0) out += "\\{";
      else {
        out += `(?:${pattern
          .slice(i + 1, end)
          .split(",")
          .map((alt) => alt.replace(/[.+^$()|\\]/g, "\\$&").replace(/\*/g, "[^/]*"))
          .join("|")})`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|\\/]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** The workspace files a workspace-relative glob matches, in the manifest's order. */
export function expandGlob(relativePattern: string, files: readonly string[]): string[] {
  const pattern = globToRegExp(relativePattern.replace(/^\.\//, ""));
  return files.filter((f) => pattern.test(f));
}

/** The workspace files under a workspace-relative folder ("" for all of them). */
export function filesUnder(folder: string, files: readonly string[]): string[] {
  if (folder === "") return [...files];
  const prefix = `${folder.replace(/\/+$/, "")}/`;
  return files.filter((f) => f.startsWith(prefix));
}

/** The workspace root, inferred from the absolute paths a run used (see the module comment). */
export function inferWorkspaceRoot(absolutePaths: readonly string[], files: readonly string[]): string | null {
  const votes = new Map<string, number>();
  for (const used of new Set(absolutePaths.map((p) => path.posix.normalize(p).replace(/\/+$/, "")))) {
    if (!used.startsWith("/") || SYSTEM_PATH.test(used)) continue;
    for (const file of files) {
      if (used.endsWith(`/${file}`)) {
        const root = used.slice(0, -(file.length + 1)) || "/";
        votes.set(root, (votes.get(root) ?? 0) + 1);
      }
    }
  }
  const ranked = [...votes].sort(([a, va], [b, vb]) => vb - va || a.length - b.length);
  if (ranked[0]) return ranked[0][0];
  for (const used of absolutePaths) {
    const known = WELL_KNOWN_ROOTS.find((root) => used === root || used.startsWith(`${root}/`));
    if (known) return known;
  }
  return null;
}

/** Absolute-looking words of a text (commands, tool arguments): the evidence for `inferWorkspaceRoot`. */
export function absolutePathsIn(text: string): string[] {
  return [...text.matchAll(/(?:^|[\s'"=:(,[])(\/[\w.@+-]+(?:\/[\w.@+-]+)*)/g)].map((m) => m[1]!);
}
