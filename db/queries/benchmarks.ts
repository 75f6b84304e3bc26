/**
 * Benchmarks in the database: saving a build (one transaction), reading summaries and instances,
 * and materializing an instance's workspace from its repository snapshot plus its setup.
 */
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { BuiltBenchmark } from "@/lib/benchmark/build";
import { snapshotDigest, type WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { InstanceSchema, type Instance } from "@/lib/benchmark/schema";
import { CATALOG_SUBTASKS, isBenchmarkSubtask, type InstanceSubtask } from "@/lib/benchmark/subtasks";
import { sha256Hex } from "@/lib/bundle/parse";
import { canonicalJson } from "@/lib/util/canonical-json";
import type { Db } from "../client";
import * as t from "../schema";

/** A setup change as stored: new content by hash, or a deletion. */
export type StoredSetupChange = { path: string; sha256: string } | { path: string; delete: true };

/** An instance as its row in `instances` (the repository snapshot and setup are stored apart). */
export function instanceRow(instance: Instance): typeof t.instances.$inferInsert {
  return {
    id: instance.id,
    benchmarkId: instance.benchmark,
    subtaskId: instance.subtask,
    sourceSample: instance.sourceSample,
    prompt: instance.prompt,
    paraphraseIndex: instance.paraphraseIndex,
    contract: instance.contract,
    groundTruth: instance.groundTruth,
  };
}

/** The instance an `instances` row holds (validated: its JSON columns are read back as stored). */
export function instanceOfRow(row: typeof t.instances.$inferSelect): Instance {
  return InstanceSchema.parse({
    id: row.id,
    benchmark: row.benchmarkId,
    subtask: row.subtaskId,
    sourceSample: row.sourceSample,
    prompt: row.prompt,
    paraphraseIndex: row.paraphraseIndex,
    contract: row.contract,
    groundTruth: row.groundTruth,
  });
}

export interface SaveSummary {
  instances: number;
  removed: number;
  /** Instances with runs left as they were: no longer built, or built differently. */
  keptWithRuns: number;
  snapshots: number;
  contentBytes: number;
}

interface PreparedContent {
  sha256: string;
  data: Buffer;
}

interface BenchmarkMeta {
  name: string;
  source: string;
  config: Record<string, unknown>;
}

/** The sha256-addressed contents one write needs, hashed before its transaction. */
class ContentSet {
  readonly contents = new Map<string, PreparedContent>();
  add(data: Buffer): string {
    const sha256 = sha256Hex(data);
    if (!this.contents.has(sha256)) this.contents.set(sha256, { sha256, data });
    return sha256;
  }
  /** Inserts the contents not yet stored; returns their bytes. */
  write(db: Db): number {
    const insertContent = db.$client.prepare(
      "INSERT INTO file_contents (sha256, size, is_text, content) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
    );
    let bytes = 0;
    for (const c of this.contents.values()) {
      bytes += c.data.length;
      insertContent.run(c.sha256, c.data.length, isUtf8Buffer(c.data) ? 1 : 0, c.data);
    }
    return bytes;
  }
}

function upsertBenchmarkRow(db: Db, id: string, seed: number, meta: BenchmarkMeta): void {
  db.insert(t.benchmarks)
    .values({ id, name: meta.name, source: meta.source, seed, config: meta.config })
    .onConflictDoUpdate({
      target: t.benchmarks.id,
      set: { name: meta.name, source: meta.source, seed, config: meta.config },
    })
    .run();
}

/** Writes one repository snapshot (unchanged when its digest is the stored one); returns its id. */
function writeSnapshot(db: Db, benchmarkId: string, projectPath: string, files: WorkspaceFiles, contents: ContentSet) {
  const entries = [...files.entries()].map(([p, f]) => ({
    path: p,
    sha256: contents.add(f.data),
    mode: f.mode,
    size: f.data.length,
  }));
  const snapshot = { projectPath, entries, digest: snapshotDigest(entries) };
  return () => {
    const existing = db
      .select()
      .from(t.repoSnapshots)
      .where(and(eq(t.repoSnapshots.benchmarkId, benchmarkId), eq(t.repoSnapshots.projectPath, snapshot.projectPath)))
      .get();
    if (existing?.digest === snapshot.digest) return existing.id;
    const values = {
      digest: snapshot.digest,
      fileCount: snapshot.entries.length,
      totalBytes: snapshot.entries.reduce((n, e) => n + e.size, 0),
    };
    let id: number;
    if (existing) {
      db.update(t.repoSnapshots).set(values).where(eq(t.repoSnapshots.id, existing.id)).run();
      db.delete(t.snapshotFiles).where(eq(t.snapshotFiles.snapshotId, existing.id)).run();
      id = existing.id;
    } else {
      id = db
        .insert(t.repoSnapshots)
        .values({ benchmarkId, projectPath: snapshot.projectPath, ...values })
        .returning({ id: t.repoSnapshots.id })
        .get().id;
    }
    const insertFile = db.$client.prepare(
      "INSERT INTO snapshot_files (snapshot_id, path, sha256, mode) VALUES (?, ?, ?, ?)",
    );
    for (const e of snapshot.entries) insertFile.run(id, e.path, e.sha256, e.mode);
    return id;
  };
}

/**
 * Stores one repository's snapshot on its own, while a build streams its repositories (the
 * builder's `onSnapshot`); saveBenchmark then links the instances to it. Creates the benchmark's
 * row when it is new.
 */
export function saveRepositorySnapshot(
  db: Db,
  benchmark: { id: string; seed: number; meta: BenchmarkMeta },
  projectPath: string,
  files: WorkspaceFiles,
): { snapshotId: number; contentBytes: number } {
  const contents = new ContentSet();
  const write = writeSnapshot(db, benchmark.id, projectPath, files, contents);
  return db.transaction((tx) => {
    if (!tx.select().from(t.benchmarks).where(eq(t.benchmarks.id, benchmark.id)).get()) {
      upsertBenchmarkRow(db, benchmark.id, benchmark.seed, benchmark.meta);
    }
    const contentBytes = contents.write(db);
    return { snapshotId: write(), contentBytes };
  });
}

export function saveBenchmark(db: Db, built: BuiltBenchmark, meta: BenchmarkMeta): SaveSummary {
  // Hash everything first; the transaction below only writes.
  const contents = new ContentSet();
  const snapshotWrites = [...built.snapshots.entries()].map(
    ([projectPath, files]) => [projectPath, writeSnapshot(db, built.id, projectPath, files, contents)] as const,
  );
  const setups = new Map(
    built.instances.map((b) => [
      b.instance.id,
      b.setup.map((c): StoredSetupChange =>
        c.content === null ? { path: c.path, delete: true } : { path: c.path, sha256: contents.add(c.content) },
      ),
    ]),
  );

  return db.transaction((tx) => {
    upsertBenchmarkRow(db, built.id, built.seed, meta);
    const contentBytes = contents.write(db);
    const snapshotIds = new Map<string, number>();
    for (const [projectPath, write] of snapshotWrites) snapshotIds.set(projectPath, write());
    // Snapshots stored while the build streamed (saveRepositorySnapshot).
    for (const row of tx
      .select({ id: t.repoSnapshots.id, projectPath: t.repoSnapshots.projectPath })
      .from(t.repoSnapshots)
      .where(eq(t.repoSnapshots.benchmarkId, built.id))
      .all()) {
      if (!snapshotIds.has(row.projectPath)) snapshotIds.set(row.projectPath, row.id);
    }

    const existingOf = db.$client.prepare<
      [string],
      { prompt: string; contract: string; ground_truth: string; setup: string; runs: number }
    >(
      "SELECT prompt, contract, ground_truth, setup, (SELECT count(*) FROM runs WHERE runs.instance_id = instances.id) AS runs FROM instances WHERE id = ?",
    );
    let frozen = 0;
    for (const b of built.instances) {
      // An instance with runs keeps the task its runs were made on: a changed rebuild does not rewrite it.
      const existing = existingOf.get(b.instance.id);
      if (existing && existing.runs > 0) {
        const same =
          existing.prompt === b.instance.prompt &&
          canonicalJson(JSON.parse(existing.contract)) === canonicalJson(b.instance.contract) &&
          canonicalJson(JSON.parse(existing.ground_truth)) === canonicalJson(b.instance.groundTruth) &&
          canonicalJson(JSON.parse(existing.setup)) === canonicalJson(setups.get(b.instance.id) ?? []);
        if (!same) {
          frozen += 1;
          continue;
        }
      }
      const row = {
        ...instanceRow(b.instance),
        projectPath: b.projectPath,
        snapshotId: snapshotIds.get(b.projectPath) ?? null,
        setup: setups.get(b.instance.id) ?? [],
        inEvalSplit: b.inEvalSplit,
      };
      const { id: _id, ...update } = row;
      tx.insert(t.instances).values(row).onConflictDoUpdate({ target: t.instances.id, set: update }).run();
    }

    // Instances this build no longer produces go, unless runs were made on them.
    const wanted = new Set(built.instances.map((b) => b.instance.id));
    const stale = tx
      .select({
        id: t.instances.id,
        runs: sql<number>`(SELECT count(*) FROM runs WHERE runs.instance_id = ${t.instances.id})`,
      })
      .from(t.instances)
      .where(eq(t.instances.benchmarkId, built.id))
      .all()
      .filter((r) => !wanted.has(r.id));
    const removable = stale.filter((r) => r.runs === 0).map((r) => r.id);
    for (let i = 0; i < removable.length; i += 500) {
      tx.delete(t.instances)
        .where(inArray(t.instances.id, removable.slice(i, i + 500)))
        .run();
    }
    return {
      instances: built.instances.length,
      removed: removable.length,
      keptWithRuns: stale.length - removable.length + frozen,
      snapshots: snapshotWrites.length,
      contentBytes,
    };
  });
}

function isUtf8Buffer(data: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

export interface BenchmarkSummary {
  id: string;
  name: string;
  source: string;
  seed: number | null;
  config: Record<string, unknown>;
  createdAt: string;
  subtasks: { id: InstanceSubtask; family: string; label: string; instances: number; inSplit: number }[];
  total: number;
  snapshots: { projectPath: string; fileCount: number; totalBytes: number }[];
}

export function listBenchmarks(db: Db): { id: string; name: string; source: string; instances: number }[] {
  return db
    .select({
      id: t.benchmarks.id,
      name: t.benchmarks.name,
      source: t.benchmarks.source,
      instances: count(t.instances.id),
    })
    .from(t.benchmarks)
    .leftJoin(t.instances, eq(t.instances.benchmarkId, t.benchmarks.id))
    .groupBy(t.benchmarks.id)
    .orderBy(asc(t.benchmarks.id))
    .all();
}

export function getBenchmarkSummary(db: Db, id: string): BenchmarkSummary | null {
  const benchmark = db.select().from(t.benchmarks).where(eq(t.benchmarks.id, id)).get();
  if (!benchmark) return null;
  const rows = db
    .select({
      subtaskId: t.instances.subtaskId,
      instances: count(),
      inSplit: sql<number>`sum(${t.instances.inEvalSplit})`,
    })
    .from(t.instances)
    .where(eq(t.instances.benchmarkId, id))
    .groupBy(t.instances.subtaskId)
    .all();
  const bySubtask = new Map(rows.map((r) => [r.subtaskId, r]));
  // The nine always (a zero is information); external only when the benchmark has such instances.
  const subtasks = CATALOG_SUBTASKS.filter((s) => isBenchmarkSubtask(s.id) || bySubtask.has(s.id)).map((s) => ({
    id: s.id,
    family: s.family,
    label: s.label,
    instances: bySubtask.get(s.id)?.instances ?? 0,
    inSplit: Number(bySubtask.get(s.id)?.inSplit ?? 0),
  }));
  const snapshots = db
    .select({
      projectPath: t.repoSnapshots.projectPath,
      fileCount: t.repoSnapshots.fileCount,
      totalBytes: t.repoSnapshots.totalBytes,
    })
    .from(t.repoSnapshots)
    .where(eq(t.repoSnapshots.benchmarkId, id))
    .orderBy(asc(t.repoSnapshots.projectPath))
    .all();
  return {
    id: benchmark.id,
    name: benchmark.name,
    source: benchmark.source,
    seed: benchmark.seed,
    config: benchmark.config as Record<string, unknown>,
    createdAt: benchmark.createdAt,
    subtasks,
    total: subtasks.reduce((n, s) => n + s.instances, 0),
    snapshots,
  };
}

export interface InstanceListRow {
  id: string;
  subtaskId: string;
  projectPath: string | null;
  sourceSample: string | null;
  inEvalSplit: boolean;
}

export function listInstances(
  db: Db,
  options: { benchmarkId: string; subtask?: InstanceSubtask; splitOnly?: boolean; limit: number; offset: number },
): { rows: InstanceListRow[]; total: number } {
  const where = and(
    eq(t.instances.benchmarkId, options.benchmarkId),
    options.subtask ? eq(t.instances.subtaskId, options.subtask) : undefined,
    options.splitOnly ? eq(t.instances.inEvalSplit, true) : undefined,
  );
  const rows = db
    .select({
      id: t.instances.id,
      subtaskId: t.instances.subtaskId,
      projectPath: t.instances.projectPath,
      sourceSample: t.instances.sourceSample,
      inEvalSplit: t.instances.inEvalSplit,
    })
    .from(t.instances)
    .where(where)
    .orderBy(asc(t.instances.id))
    .limit(options.limit)
    .offset(options.offset)
    .all();
  const total = db.select({ n: count() }).from(t.instances).where(where).get()?.n ?? 0;
  return { rows, total };
}

export interface InstanceDetail {
  instance: Instance;
  projectPath: string | null;
  inEvalSplit: boolean;
  setup: StoredSetupChange[];
  /** The target file as the agent finds it (after setup), when the instance has one. */
  workspaceFile: { path: string; content: string } | null;
  /** The same file before setup (the original repository). */
  originalFile: { path: string; content: string } | null;
}

export function getInstance(db: Db, id: string): InstanceDetail | null {
  const row = db.select().from(t.instances).where(eq(t.instances.id, id)).get();
  if (!row) return null;
  const instance = instanceOfRow(row);
  const setup = row.setup as StoredSetupChange[];
  const file = instance.groundTruth.originalFile;
  const readText = (sha256: string | undefined) => {
    if (!sha256) return null;
    const content = db
      .select({ content: t.fileContents.content })
      .from(t.fileContents)
      .where(eq(t.fileContents.sha256, sha256))
      .get();
    return content ? content.content.toString("utf8") : null;
  };
  let originalFile: InstanceDetail["originalFile"] = null;
  let workspaceFile: InstanceDetail["workspaceFile"] = null;
  if (file && row.snapshotId !== null) {
    const snap = db
      .select({ sha256: t.snapshotFiles.sha256 })
      .from(t.snapshotFiles)
      .where(and(eq(t.snapshotFiles.snapshotId, row.snapshotId), eq(t.snapshotFiles.path, file)))
      .get();
    const original = readText(snap?.sha256);
    if (original !== null) originalFile = { path: file, content: original };
    const change = setup.find((c) => c.path === file);
    const after = change ? ("delete" in change ? null : readText(change.sha256)) : original;
    if (after !== null) workspaceFile = { path: file, content: after };
  }
  return { instance, projectPath: row.projectPath, inEvalSplit: row.inEvalSplit, setup, workspaceFile, originalFile };
}

/** One of our instances by id, as `{ id, benchmark }` (a foreign log naming it attaches to it), or null. */
export function instanceRef(db: Db, id: string): { id: string; benchmark: string } | null {
  return (
    db
      .select({ id: t.instances.id, benchmark: t.instances.benchmarkId })
      .from(t.instances)
      .where(eq(t.instances.id, id))
      .get() ?? null
  );
}

/** Every instance as `{ id, benchmark }`: what instanceRef would find, for a worker that has no database. */
export function instanceRefs(db: Db): { id: string; benchmark: string }[] {
  return db.select({ id: t.instances.id, benchmark: t.instances.benchmarkId }).from(t.instances).all();
}
