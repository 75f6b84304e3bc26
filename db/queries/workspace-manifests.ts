/**
 * A run's workspace manifests as full manifests, whatever version its bundle was: a version-4
 * member (changes against a base, stored as it came) is expanded against its base, stored in
 * file_contents by its digest when the run was imported; an earlier one is read as it is. Every
 * reader of the stored manifests goes through here. Also where an import resolves a version-4
 * bundle against the instance's prepared workspace.
 */
import { BundleError } from "@/lib/bundle/errors";
import type { ParsedBundle } from "@/lib/bundle/parse";
import { BUNDLE_MEMBERS, type WorkspaceManifest } from "@/lib/bundle/schema";
import {
  fullManifestOf,
  parseWorkspaceBase,
  resolveWorkspaceDelta,
  type WorkspaceBase,
} from "@/lib/bundle/workspace-delta";
import type { Db } from "../client";
import { preparedPerConnection } from "../prepared";
import { instanceWorkspaceBase } from "./instance-workspace";

export type WorkspaceMember = typeof BUNDLE_MEMBERS.workspaceBefore | typeof BUNDLE_MEMBERS.workspaceAfter;

/** Bases read lately, by digest: a judge pass reads the runs of one instance one after another. */
const recent = new Map<string, WorkspaceBase>();
const RECENT_BASES = 8;

/** The stored base of this digest, or null when the store has none. */
export function storedWorkspaceBase(db: Db, digest: string): WorkspaceBase | null {
  const known = recent.get(digest);
  if (known) return known;
  const row = db.$client
    .prepare<[string], { content: Buffer }>("SELECT content FROM file_contents WHERE sha256 = ?")
    .get(digest);
  if (!row) return null;
  const base = parseWorkspaceBase(row.content);
  if (recent.size >= RECENT_BASES) recent.delete(recent.keys().next().value!);
  recent.set(digest, base);
  return base;
}

const memberQuery = preparedPerConnection((db) =>
  db.$client.prepare<[string, string], { content: Buffer }>(
    `SELECT c.content AS content FROM run_artifacts a JOIN file_contents c ON c.sha256 = a.sha256
      WHERE a.run_id = ? AND a.path = ?`,
  ),
);

/** The run's stored workspace member as a full manifest, or null when the run has none stored. */
export function storedWorkspaceManifest(db: Db, runId: string, member: WorkspaceMember): WorkspaceManifest | null {
  const row = memberQuery(db).get(runId, member);
  if (!row) return null;
  return fullManifestOf(row.content, (digest) => storedWorkspaceBase(db, digest), { bundle: runId, member });
}

/**
 * A version-4 bundle resolved against its instance's prepared workspace, which must be the base
 * it names; refused, naming the member and the digest, when the studio has no such base.
 * Returns the base to store with the run (null for a bundle of an earlier version).
 */
export function resolveAgainstInstance(
  db: Db,
  bundle: ParsedBundle,
): { bundle: ParsedBundle; base: WorkspaceBase | null } {
  const delta = bundle.workspaceDelta;
  if (!delta) return { bundle, base: null };
  const instanceId = bundle.manifest.instanceId;
  const base = instanceWorkspaceBase(db, instanceId);
  if (!base || base.digest !== delta.base) {
    throw new BundleError(
      { bundle: bundle.label, member: BUNDLE_MEMBERS.workspaceBefore, field: "base.digest" },
      `unknown base ${delta.base}: ` +
        (base
          ? `the prepared workspace of instance "${instanceId}" here is ${base.digest} (its repository snapshot or setup differs from the one the run was made on)`
          : `instance "${instanceId}" has no repository snapshot here to hold it`) +
        "; write the bundle with full manifests (version 3 or lower)",
    );
  }
  return { bundle: resolveWorkspaceDelta(bundle, base), base };
}
