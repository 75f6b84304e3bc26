/**
 * What a remote worker needs from the studio to run an instance without building the benchmark
 * (app/api/workers/*): which runs to make, the instance, its repository snapshot as a manifest of
 * content hashes, and the contents by hash. Contents are addressed by sha256, so a worker caches
 * each file once, whatever snapshot or setup names it (lib/remote/remote-store.ts).
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { Instance } from "@/lib/benchmark/schema";
import { AppError } from "@/lib/errors/app-error";
import type { Db } from "../client";
import * as t from "../schema";
import { getInstance, type StoredSetupChange } from "./benchmarks";

export interface WorkerInstance {
  instance: Instance;
  /** The repository snapshot's digest (lib/remote: GET /api/workers/snapshot?digest=). */
  snapshot: string;
  setup: StoredSetupChange[];
}

export interface SnapshotEntry {
  path: string;
  sha256: string;
  mode: number;
}

export function workerInstance(db: Db, id: string): WorkerInstance {
  const detail = getInstance(db, id);
  const row = db
    .select({ setup: t.instances.setup, digest: t.repoSnapshots.digest })
    .from(t.instances)
    .leftJoin(t.repoSnapshots, eq(t.repoSnapshots.id, t.instances.snapshotId))
    .where(eq(t.instances.id, id))
    .get();
  if (!detail || !row) throw new AppError("NOT_FOUND", `instance "${id}" not found`);
  if (row.digest === null)
    throw new AppError("INVALID_INPUT", `instance "${id}" was built from metadata only: it has no workspace to run in`);
  return { instance: detail.instance, snapshot: row.digest, setup: row.setup as StoredSetupChange[] };
}

/** The snapshot's files in stored order (the order its digest was computed in). */
export function snapshotManifest(db: Db, digest: string): SnapshotEntry[] {
  const snapshot = db
    .select({ id: t.repoSnapshots.id })
    .from(t.repoSnapshots)
    .where(eq(t.repoSnapshots.digest, digest))
    .orderBy(asc(t.repoSnapshots.id))
    .get();
  if (!snapshot) throw new AppError("NOT_FOUND", `repository snapshot ${digest} not found`);
  return db.$client
    .prepare<[number], SnapshotEntry>(
      "SELECT path, sha256, mode FROM snapshot_files WHERE snapshot_id = ? ORDER BY rowid",
    )
    .all(snapshot.id);
}

/**
 * The contents of these hashes, in the order asked, until `maxBytes` would be passed (at least
 * one): the worker asks again for the rest. A hash not stored is an error naming it.
 */
export function contentsByHash(db: Db, hashes: readonly string[], maxBytes: number): Map<string, Buffer> {
  const rows = db
    .select({ sha256: t.fileContents.sha256, content: t.fileContents.content })
    .from(t.fileContents)
    .where(inArray(t.fileContents.sha256, [...new Set(hashes)]))
    .all();
  const found = new Map(rows.map((r) => [r.sha256, r.content]));
  const out = new Map<string, Buffer>();
  let bytes = 0;
  for (const hash of hashes) {
    const content = found.get(hash);
    if (!content) throw new AppError("NOT_FOUND", `content ${hash} not found`);
    if (out.size > 0 && bytes + content.length > maxBytes) break;
    out.set(hash, content);
    bytes += content.length;
  }
  return out;
}
