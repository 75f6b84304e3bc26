/**
 * A run's bundle as it was imported: every member is stored by content hash (run_artifacts), so
 * the bundle comes back byte for byte, version-4 workspace members as the changes they were
 * (their base stays in the store; storedWorkspaceManifest expands them for readers).
 */
import type { BundleFiles } from "@/lib/bundle/read";
import type { Db } from "../client";

/** The run's members by path, or null when no such run is stored. */
export function storedBundleFiles(db: Db, runId: string): BundleFiles | null {
  const rows = db.$client
    .prepare<[string], { path: string; content: Buffer }>(
      `SELECT a.path AS path, c.content AS content FROM run_artifacts a JOIN file_contents c ON c.sha256 = a.sha256
        WHERE a.run_id = ? ORDER BY a.path`,
    )
    .all(runId);
  return rows.length === 0 ? null : new Map(rows.map((r) => [r.path, r.content]));
}
