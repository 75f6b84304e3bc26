import { describe, expect, it } from "vitest";
import type { BuiltBenchmark } from "@/lib/benchmark/build";
import { SUBTASK_IDS, type SubtaskId } from "@/lib/benchmark/subtasks";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { BundleError } from "@/lib/bundle/errors";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { parseBundle } from "@/lib/bundle/parse";
import type { BundleFiles } from "@/lib/bundle/read";
import { BUNDLE_MEMBERS, type WorkspaceDelta } from "@/lib/bundle/schema";
import { editJson, readJson } from "@/lib/bundle/test-support";
import { bundleFilesOf, type RunRecord } from "@/lib/bundle/write";
import { workspaceBaseOfSource } from "@/lib/runner/workspace-base";
import { createDb, type Db } from "../client";
import { saveBenchmark } from "./benchmarks";
import { loadEvaluationInput } from "./evaluation";
import { instanceWorkspaceBase, instanceWorkspaceSource } from "./instance-workspace";
import { importParsedBundle } from "./run-import";
import { storedBundleFiles } from "./stored-bundle";
import { storedWorkspaceManifest } from "./workspace-manifests";

const zeroCounts = () => Object.fromEntries(SUBTASK_IDS.map((s) => [s, 0])) as Record<SubtaskId, number>;

/**
 * A database holding the record's instance with a repository snapshot and a setup that turns the
 * snapshot into the record's "before" workspace (one file rewritten, one planted file removed).
 */
function seeded(record: RunRecord): Db {
  const db = createDb(":memory:");
  const snapshot: WorkspaceFiles = new Map(record.before);
  snapshot.set("README.md", { data: Buffer.from("# the original readme\n"), mode: 0o100644 });
  snapshot.set("answers/solution.py", { data: Buffer.from("ANSWER = 42\n"), mode: 0o100644 });
  const built: BuiltBenchmark = {
    id: record.instance!.benchmark,
    seed: 1,
    metadataOnly: false,
    instances: [
      {
        instance: record.instance!,
        projectPath: "Topic/repo",
        setup: [
          { path: "README.md", content: record.before.get("README.md")!.data },
          { path: "answers/solution.py", content: null },
        ],
        inEvalSplit: false,
      },
    ],
    snapshots: new Map([["Topic/repo", snapshot]]),
    dropped: [],
    mismatches: [],
    missingRepositories: [],
    counts: zeroCounts(),
    splitCounts: zeroCounts(),
  };
  saveBenchmark(db, built, { name: "synthetic", source: "deveval", config: {} });
  return db;
}

/** The record's v3 bundle and its v4 bundle against the base the runner computes from the studio's source. */
function bundlesOf(db: Db, record: RunRecord): { v3: BundleFiles; v4: BundleFiles } {
  const base = workspaceBaseOfSource(instanceWorkspaceSource(db, record.manifest.instanceId));
  const v4Record = { ...record, manifest: { ...record.manifest, runId: `${record.manifest.runId}-v4` }, base };
  return { v3: bundleFilesOf(record), v4: bundleFilesOf(v4Record) };
}

const importFiles = (db: Db, files: BundleFiles, label = "b") =>
  importParsedBundle(db, parseBundle(files, label), { via: "cli" });

const fileChangeRows = (db: Db, runId: string) =>
  db.$client
    .prepare(
      `SELECT path, kind, before_sha256, after_sha256, before_mode, after_mode, before_size, after_size
         FROM file_changes WHERE run_id = ? ORDER BY path`,
    )
    .all(runId);

const count = (db: Db, table: string) =>
  (db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("version-4 bundles in the studio", () => {
  const record = generatedRunRecord({ index: 7, seed: 4 });

  it("computes the same base from the database as a runner does from the workspace source", () => {
    const db = seeded(record);
    const studio = instanceWorkspaceBase(db, record.manifest.instanceId)!;
    const runner = workspaceBaseOfSource(instanceWorkspaceSource(db, record.manifest.instanceId));
    expect(studio.digest).toBe(runner.digest);
    expect(studio.bytes.equals(runner.bytes)).toBe(true);
  });

  it("imports a v4 bundle with the file changes of the equivalent v3 bundle, and exports it byte for byte", () => {
    const db = seeded(record);
    const { v3, v4 } = bundlesOf(db, record);
    expect(readJson(v4, BUNDLE_MEMBERS.workspaceBefore)).toMatchObject({ changes: [] });
    const r3 = importFiles(db, v3, "v3");
    const r4 = importFiles(db, v4, "v4");
    expect([r3.outcome, r4.outcome]).toEqual(["imported", "imported"]);
    expect(fileChangeRows(db, r4.runId)).toEqual(fileChangeRows(db, r3.runId));
    expect(fileChangeRows(db, r4.runId).length).toBe(5);

    const runRow = (id: string) =>
      db.$client.prepare("SELECT files_before, files_after, bundle_version FROM runs WHERE id = ?").get(id);
    expect(runRow(r4.runId)).toEqual({ ...(runRow(r3.runId) as object), bundle_version: 4 });

    for (const member of [BUNDLE_MEMBERS.workspaceBefore, BUNDLE_MEMBERS.workspaceAfter] as const)
      expect(storedWorkspaceManifest(db, r4.runId, member)).toEqual(storedWorkspaceManifest(db, r3.runId, member));

    for (const [files, runId] of [
      [v3, r3.runId],
      [v4, r4.runId],
    ] as const) {
      const exported = storedBundleFiles(db, runId)!;
      expect([...exported.keys()].sort()).toEqual([...files.keys()].sort());
      for (const [name, data] of files) expect(exported.get(name)!.equals(data), name).toBe(true);
      expect(importFiles(db, exported).outcome).toBe("unchanged");
    }
    // The judge's view of both runs is the same.
    const { runId: _a, ...input3 } = loadEvaluationInput(db, r3.runId);
    const { runId: _b, ...input4 } = loadEvaluationInput(db, r4.runId);
    expect(input4).toEqual(input3);
  });

  it("stores the base once, so a run's manifests still expand after the snapshot is rebuilt", () => {
    const db = seeded(record);
    const { v4 } = bundlesOf(db, record);
    const { runId } = importFiles(db, v4);
    const expected = storedWorkspaceManifest(db, runId, BUNDLE_MEMBERS.workspaceAfter);
    db.$client.prepare("DELETE FROM snapshot_files").run();
    expect(storedWorkspaceManifest(db, runId, BUNDLE_MEMBERS.workspaceAfter)).toEqual(expected);
  });

  it("refuses a v4 bundle whose base the studio does not have, writing nothing", () => {
    const db = seeded(record);
    const { v4 } = bundlesOf(db, record);
    const unknown = "f".repeat(64);
    let files = v4;
    for (const member of [BUNDLE_MEMBERS.workspaceBefore, BUNDLE_MEMBERS.workspaceAfter])
      files = editJson<WorkspaceDelta>(files, member, (d) => (d.base.digest = unknown));
    const contents = count(db, "file_contents");
    const error = (() => {
      try {
        importFiles(db, files, "runs/r9");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).message).toMatch(
      new RegExp(
        `^runs/r9: workspace/before\\.json, field "base\\.digest": unknown base ${unknown}: the prepared workspace of instance "${record.manifest.instanceId}" here is [0-9a-f]{64}`,
      ),
    );
    expect([count(db, "runs"), count(db, "run_artifacts"), count(db, "file_contents")]).toEqual([0, 0, contents]);
  });

  it("refuses a v4 bundle for an instance without a repository snapshot", () => {
    const db = seeded(record);
    const { v4 } = bundlesOf(db, record);
    const other = createDb(":memory:");
    expect(() => importFiles(other, v4, "runs/r2")).toThrow(/has no repository snapshot here to hold it/);
    expect(count(other, "runs")).toBe(0);
  });
});
