/**
 * The base a run's bundle is written against (bundle version 4): its workspace source, the
 * repository snapshot with the instance's setup applied, as manifest entries. The studio computes
 * the same base from its database (db/queries/instance-workspace.ts `instanceWorkspaceBase`), so
 * both agree on its digest without exchanging it.
 */
import { sha256Hex } from "@/lib/bundle/parse";
import { workspaceBaseOf, type BaseEntry, type WorkspaceBase } from "@/lib/bundle/workspace-delta";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import type { WorkspaceSource } from "./workspace-cache";

/**
 * Snapshot entries by the snapshot's files object: both stores hand out the same object for
 * consecutive runs on one repository, so its files are hashed once (a 5,000-file repository).
 */
const hashedSnapshots = new WeakMap<WorkspaceFiles, Map<string, BaseEntry>>();

function snapshotEntries(files: WorkspaceFiles): Map<string, BaseEntry> {
  let entries = hashedSnapshots.get(files);
  if (!entries) {
    entries = new Map();
    for (const [path, file] of files)
      entries.set(path, { path, size: file.data.length, mode: file.mode, sha256: sha256Hex(file.data) });
    hashedSnapshots.set(files, entries);
  }
  return entries;
}

export function workspaceBaseOfSource(source: WorkspaceSource): WorkspaceBase {
  const entries = new Map(snapshotEntries(source.base));
  for (const [path, file] of source.overlay) {
    if (file === null) entries.delete(path);
    else entries.set(path, { path, size: file.data.length, mode: file.mode, sha256: sha256Hex(file.data) });
  }
  return workspaceBaseOf(entries.values());
}
