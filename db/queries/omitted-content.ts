/**
 * Which sides of a run's changed files were recorded without their content (a workspace entry
 * with `contentOmitted`: a file over the runner's size cap, kept as size and sha256 only). Such a
 * side has no file_contents row, so file_changes holds its size but no hash; the flag and the
 * hash live in the bundle's workspace manifests, stored with the run as members, read only for a
 * run that has a change whose content is not in the store.
 */
import { BUNDLE_MEMBERS, type WorkspaceManifest } from "@/lib/bundle/schema";
import type { Db } from "../client";
import { storedWorkspaceManifest } from "./workspace-manifests";

export type ChangeSide = "before" | "after";
export const sideKey = (side: ChangeSide, path: string) => `${side}\0${path}`;

/**
 * `sideKey(side, path)` -> sha256 of every entry whose content was omitted, in the run's two
 * manifests (null for a side a run made elsewhere did not capture: no hash is known).
 */
export function omittedSides(db: Db, runId: string): Map<string, string | null> {
  const omitted = new Map<string, string | null>();
  for (const [member, side] of [
    [BUNDLE_MEMBERS.workspaceBefore, "before"],
    [BUNDLE_MEMBERS.workspaceAfter, "after"],
  ] as const) {
    let manifest: WorkspaceManifest | null;
    try {
      manifest = storedWorkspaceManifest(db, runId, member);
    } catch {
      continue; // validated on import; a damaged store shows "missing" instead
    }
    for (const entry of manifest?.files ?? [])
      if (entry.contentOmitted) omitted.set(sideKey(side, entry.path), entry.sha256);
  }
  return omitted;
}
