/**
 * The sandbox guard as bubblewrap mounts (the rule itself: lib/workspace/guard.ts). Later mounts
 * cover earlier ones (sandbox-view.ts applies them parents first):
 * 1. the workspace read-only: nothing in it can be written, created, removed or renamed (EROFS);
 * 2. each folder where the task must create or delete a file read-write, and each of its existing
 *    entries bound back over it (read-only, or read-write for a may-change file), except the files
 *    to delete: a mount point cannot be removed or renamed (EBUSY) and a read-only one not
 *    written (EROFS), so only the expected deletions and new entries are possible there;
 * 3. each may-change file bound read-write: its content can change, the file cannot go away.
 * The plan is made once per sandbox, from the workspace as materialized, before the agent acts:
 * nothing the agent makes later (a symlink, a folder) ever becomes a mount source.
 * What it cannot stop is listed in `GuardPlan.gaps` and in docs/codekit.md.
 */
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { isIgnoredPath } from "@/lib/benchmark/ignored-paths";
import { diffManifests } from "@/lib/bundle/parse";
import { manifestOf } from "@/lib/bundle/write";
import type { Mount } from "@/lib/util/sandbox-view";
import type { GuardRules } from "@/lib/workspace/guard";

/**
 * Entries a writable folder may have for its entries to be bound back. Each bind costs more the
 * more mounts there are (bubblewrap 0.8 reads the mount table for every one): per command, with
 * the ~30 mounts of the view, 10 binds cost nothing measurable, 211 (a folder of the Python
 * standard library) 270 ms, 500 1.2 s, 1,500 10 s. A folder with more entries stays read-only:
 * the guard fails closed. So the argument list stays under ~100 kB (ARG_MAX is 2 MB): no --args.
 */
export const MAX_BOUND_ENTRIES = 256;

export interface GuardPlan {
  /** bwrap mounts, the read-only workspace first. */
  mounts: Mount[];
  /** Folders left writable for an expected creation or deletion (workspace-relative, "." for the root). */
  writableFolders: string[];
  /** What the mounts leave open, one sentence each (for the run's sandbox.json). */
  gaps: string[];
}

async function lstatOrNull(file: string) {
  return fs.lstat(file).catch(() => null);
}

/** The deepest existing real folder (no link on the way) that holds `rel`'s parent, or null. */
async function nearestFolder(root: string, rel: string): Promise<string | null> {
  const parts = rel.split("/").slice(0, -1);
  let reached = ".";
  for (const part of parts) {
    const next = reached === "." ? part : `${reached}/${part}`;
    const stat = await lstatOrNull(path.join(root, next));
    if (!stat) break;
    if (!stat.isDirectory()) return null;
    reached = next;
  }
  return reached;
}

/** The mounts that hold a workspace (its real path) to `rules`. */
export async function planGuard(root: string, rules: GuardRules): Promise<GuardPlan> {
  const abs = (rel: string) => (rel === "." ? root : path.join(root, rel));
  const bind = (rel: string, writable: boolean): Mount => ({
    target: abs(rel),
    args: [writable ? "--bind" : "--ro-bind", abs(rel), abs(rel)],
  });
  const gaps: string[] = [];
  const shown = (folder: string) => (folder === "." ? "the workspace root" : folder);
  const candidates = new Set<string>();
  for (const rel of [...rules.expectedCreate, ...rules.expectedDelete]) {
    const folder = await nearestFolder(root, rel);
    if (folder === null) gaps.push(`${rel}: a path component is not a folder; the change is refused`);
    else candidates.add(folder);
  }
  // Decided before any is bound: a folder left read-only is bound back in its writable parent.
  const folders = new Map<string, Dirent[]>();
  for (const folder of [...candidates].sort()) {
    const entries = await fs.readdir(abs(folder), { withFileTypes: true });
    if (entries.length <= MAX_BOUND_ENTRIES) folders.set(folder, entries);
    else
      gaps.push(
        `${shown(folder)}/: ${entries.length} entries, too many to bind back; left read-only, so its expected ` +
          "creation or deletion is possible only with the runner's own editor tools",
      );
  }
  const mayChange = new Set(rules.mayChange);
  const bound = new Set<string>();
  const mounts: Mount[] = [bind(".", false)];

  for (const [folder, entries] of folders) {
    mounts.push(bind(folder, true));
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = folder === "." ? entry.name : `${folder}/${entry.name}`;
      if (folders.has(rel)) continue;
      if (rules.expectedDelete.includes(rel)) {
        gaps.push(`${rel}: expected to be deleted, so it can also be written or renamed inside its folder`);
        continue;
      }
      if (entry.isSymbolicLink()) {
        // bwrap would follow it to its target: never a mount source. It stays an ordinary entry.
        gaps.push(`${rel}: a symlink in a writable folder; it can be removed or replaced`);
        continue;
      }
      const writable = entry.isFile() && mayChange.has(rel);
      mounts.push(bind(rel, writable));
      bound.add(rel);
    }
    gaps.push(`${shown(folder)}/: new files other than the expected ones can be created here`);
  }

  for (const rel of [...mayChange].sort()) {
    if (bound.has(rel)) continue;
    const stat = await lstatOrNull(abs(rel));
    if (stat?.isFile()) mounts.push(bind(rel, true));
    else if (stat?.isSymbolicLink()) gaps.push(`${rel}: a may-change symlink; writes through it are refused`);
  }
  return { mounts, writableFolders: [...folders.keys()], gaps };
}

/**
 * The files that changed against the rules anyway (through a gap the mounts leave: a scratch file
 * in a folder left writable for an expected creation, say), execution caches left out. Recorded
 * in the run's sandbox.json; the judges see these changes in the workspace diff like any other.
 */
export function guardBreaches(rules: GuardRules, before: WorkspaceFiles, after: WorkspaceFiles): string[] {
  const allowed = {
    created: rules.expectedCreate,
    updated: [...rules.mayChange, ...rules.expectedCreate],
    deleted: rules.expectedDelete,
  };
  return diffManifests(manifestOf(before), manifestOf(after))
    .filter((change) => !isIgnoredPath(change.path) && !allowed[change.kind].includes(change.path))
    .map((change) => `${change.path} ${change.kind}`);
}
