/**
 * Deep links into a run page: `#step-<stepId>` for a trajectory step, `#file-<path>` for a changed
 * file's diff and `#hunk-<n>-<path>` for one hunk of it (0-based, as verdict citations count).
 */

export type RunAnchor = { kind: "step"; stepId: string } | { kind: "file"; path: string; hunk: number | null };

export function anchorId(anchor: RunAnchor): string {
  if (anchor.kind === "step") return `step-${anchor.stepId}`;
  return anchor.hunk === null ? `file-${anchor.path}` : `hunk-${anchor.hunk}-${anchor.path}`;
}

/** The `#...` fragment, with what a URL fragment cannot hold percent-encoded (`/`, `:` and `@` stay readable). */
export function anchorHash(anchor: RunAnchor): string {
  return `#${encodeURIComponent(anchorId(anchor)).replace(/%2F/g, "/").replace(/%3A/g, ":").replace(/%40/g, "@")}`;
}

/** Reads `location.hash` (with or without the `#`); null for anything that is not a run anchor. */
export function parseAnchor(hash: string): RunAnchor | null {
  let id: string;
  try {
    id = decodeURIComponent(hash.startsWith("#") ? hash.slice(1) : hash);
  } catch {
    return null;
  }
  if (id.startsWith("step-") && id.length > 5) return { kind: "step", stepId: id.slice(5) };
  if (id.startsWith("file-") && id.length > 5) return { kind: "file", path: id.slice(5), hunk: null };
  const hunk = /^hunk-(\d{1,6})-(.+)$/s.exec(id);
  if (hunk) return { kind: "file", path: hunk[2]!, hunk: Number(hunk[1]) };
  return null;
}
