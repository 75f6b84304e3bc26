/**
 * An instance's workspace as a WorkspaceSource (lib/runner/workspace-cache.ts): its repository
 * snapshot, keyed by the snapshot's content digest, with the instance's setup as the overlay. In
 * this form runs share one cached copy of each repository (run-agents, bench:runner).
 */
import { eq } from "drizzle-orm";
import type { WorkspaceFile, WorkspaceFiles } from "@/lib/benchmark/workspace-files";
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

export function instanceWorkspaceSource(db: Db, id: string): WorkspaceSource {
  const row = db
    .select({ snapshotId: t.instances.snapshotId, setup: t.instances.setup, digest: t.repoSnapshots.digest })
    .from(t.instances)
    .leftJoin(t.repoSnapshots, eq(t.repoSnapshots.id, t.instances.snapshotId))
    .where(eq(t.instances.id, id))
    .get();
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
