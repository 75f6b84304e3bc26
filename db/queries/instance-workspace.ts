/**
 * An instance's workspace as a WorkspaceSource (lib/runner/workspace-cache.ts): its repository
 * snapshot, keyed by the snapshot's content digest, with the instance's setup as the overlay. In
 * this form runs share one cached copy of each repository (run-agents, bench:runner).
 */
import { eq } from "drizzle-orm";
import type { WorkspaceFile, WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { workspaceBaseOf, type BaseEntry, type WorkspaceBase } from "@/lib/bundle/workspace-delta";
import { AppError } from "@/lib/errors/app-error";
import type { WorkspaceSource } from "@/lib/runner/workspace-cache";
import type { Db } from "../client";
import * as t from "../schema";
import type { StoredSetupChange } from "./benchmarks";

/** The last snapshot read, by content digest (runs come grouped by repository often enough). */
let lastBase: { digest: string; files: WorkspaceFiles } | null = null;

function snapshotFiles(db: Db, snapshotId: number, digest: string): WorkspaceFiles {
  if (lastBase?.digest === digest) return lastBase.files;
  const rows = db
    .select({ path: t.snapshotFiles.path, mode: t.snapshotFiles.mode, data: t.fileContents.content })
    .from(t.snapshotFiles)
    .innerJoin(t.fileContents, eq(t.fileContents.sha256, t.snapshotFiles.sha256))
    .where(eq(t.snapshotFiles.snapshotId, snapshotId))
    .all();
  const files: WorkspaceFiles = new Map(rows.map((r) => [r.path, { data: r.data, mode: r.mode }]));
  lastBase = { digest, files };
  return files;
}

/** What an instance's workspace is prepared from: its snapshot (id and digest) and its setup. */
function preparedRow(db: Db, id: string) {
  return db
    .select({ snapshotId: t.instances.snapshotId, setup: t.instances.setup, digest: t.repoSnapshots.digest })
    .from(t.instances)
    .leftJoin(t.repoSnapshots, eq(t.repoSnapshots.id, t.instances.snapshotId))
    .where(eq(t.instances.id, id))
    .get();
}

export function instanceWorkspaceSource(db: Db, id: string): WorkspaceSource {
  const row = preparedRow(db, id);
  if (!row) throw new AppError("NOT_FOUND", `instance "${id}" not found`);
  if (row.snapshotId === null || row.digest === null) {
    throw new AppError("INVALID_INPUT", `instance "${id}" was built from metadata only: it has no workspace to run in`);
  }
  const base = snapshotFiles(db, row.snapshotId, row.digest);
  const contentOf = db.$client.prepare<[string], { content: Buffer }>(
    "SELECT content FROM file_contents WHERE sha256 = ?",
  );
  const overlay = new Map<string, WorkspaceFile | null>();
  for (const change of row.setup as StoredSetupChange[]) {
    if ("delete" in change) {
      overlay.set(change.path, null);
      continue;
    }
    const content = contentOf.get(change.sha256);
    if (!content) throw new AppError("INTERNAL", `content ${change.sha256} of ${change.path} is missing`);
    overlay.set(change.path, { data: content.content, mode: base.get(change.path)?.mode ?? 0o100644 });
  }
  return { key: row.digest, base, overlay };
}

/** Bases computed lately, by snapshot digest and setup (runs come grouped by instance). */
const recentBases = new Map<string, WorkspaceBase>();
const RECENT_BASES = 8;

/**
 * The instance's prepared workspace (its repository snapshot with its setup applied) as the base
 * of version-4 workspace members, as a producer computes it from the same files
 * (lib/runner/workspace-base.ts): null for an instance without a snapshot. Reads hashes and sizes
 * only, never contents.
 */
export function instanceWorkspaceBase(db: Db, id: string): WorkspaceBase | null {
  const row = preparedRow(db, id);
  if (!row || row.snapshotId === null || row.digest === null) return null;
  const setup = row.setup as StoredSetupChange[];
  const key = `${row.digest}\0${JSON.stringify(setup)}`;
  const known = recentBases.get(key);
  if (known) return known;
  const entries = new Map<string, BaseEntry>();
  for (const e of db.$client
    .prepare<[number], BaseEntry>(
      `SELECT f.path AS path, c.size AS size, f.mode AS mode, f.sha256 AS sha256
         FROM snapshot_files f JOIN file_contents c ON c.sha256 = f.sha256 WHERE f.snapshot_id = ?`,
    )
    .all(row.snapshotId))
    entries.set(e.path, e);
  const snapshotModes = new Map([...entries.values()].map((e) => [e.path, e.mode]));
  const sizeOf = db.$client.prepare<[string], { size: number }>("SELECT size FROM file_contents WHERE sha256 = ?");
  for (const change of setup) {
    if ("delete" in change) {
      entries.delete(change.path);
      continue;
    }
    const size = sizeOf.get(change.sha256)?.size;
    if (size === undefined) throw new AppError("INTERNAL", `content ${change.sha256} of ${change.path} is missing`);
    // The mode a workspace source gives a setup file (instanceWorkspaceSource above).
    const mode = snapshotModes.get(change.path) ?? 0o100644;
    entries.set(change.path, { path: change.path, size, mode, sha256: change.sha256 });
  }
  const base = workspaceBaseOf(entries.values());
  if (recentBases.size >= RECENT_BASES) recentBases.delete(recentBases.keys().next().value!);
  recentBases.set(key, base);
  return base;
}
