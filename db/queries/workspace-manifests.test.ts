import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBesideMetadata } from "@/lib/benchmark/source-code.fixture";
import type { BuiltBenchmark } from "@/lib/benchmark/build";
import { SUBTASK_IDS, type SubtaskId } from "@/lib/benchmark/subtasks";
import type { Instance } from "@/lib/benchmark/schema";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { BundleError } from "@/lib/bundle/errors";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { parseBundle } from "@/lib/bundle/parse";
import type { BundleFiles } from "@/lib/bundle/read";
import { BUNDLE_MEMBERS, type WorkspaceDelta } from "@/lib/bundle/schema";
import { editJson, readJson } from "@/lib/bundle/test-support";
import { bundleFilesOf, zipBuffer, type RunRecord } from "@/lib/bundle/write";
import { remoteBatchStore } from "@/lib/remote/remote-store";
import type { StudioClient } from "@/lib/remote/studio-client";
import { workspaceBaseOfSource } from "@/lib/runner/workspace-base";
import { withOverlay } from "@/lib/runner/workspace-cache";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { createDb, type Db } from "../client";
import { saveBenchmark } from "./benchmarks";
import { loadEvaluationInput } from "./evaluation";
import { instanceWorkspaceBase, instanceWorkspaceSource } from "./instance-workspace";
import { importParsedBundle } from "./run-import";
import { storedBundleFiles } from "./stored-bundle";
import { loadTaskCheckInput } from "./task-checks";
import { contentsByHash, snapshotManifest, workerInstance } from "./worker-supply";
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

/** Two imports of one run, in full and as changes, are the same run to every reader. */
function expectSameRun(db: Db, full: string, delta: string): void {
  expect(fileChangeRows(db, delta)).toEqual(fileChangeRows(db, full));
  const runRow = (id: string) =>
    db.$client.prepare("SELECT files_before, files_after, bundle_version FROM runs WHERE id = ?").get(id);
  expect(runRow(delta)).toEqual({ ...(runRow(full) as object), bundle_version: 4 });
  for (const member of [BUNDLE_MEMBERS.workspaceBefore, BUNDLE_MEMBERS.workspaceAfter] as const)
    expect(storedWorkspaceManifest(db, delta, member)).toEqual(storedWorkspaceManifest(db, full, member));
  const { runId: _a, ...input3 } = loadEvaluationInput(db, full);
  const { runId: _b, ...input4 } = loadEvaluationInput(db, delta);
  expect(input4).toEqual(input3);
  const check3 = loadTaskCheckInput(db, full);
  const check4 = loadTaskCheckInput(db, delta);
  expect(check4.before).toEqual(check3.before);
  expect(check4.after).toEqual(check3.after);
}

/** Each run's bundle comes back byte for byte, and importing it again changes nothing. */
function expectExportedAsImported(db: Db, imported: readonly (readonly [BundleFiles, string])[]): void {
  for (const [files, runId] of imported) {
    const exported = storedBundleFiles(db, runId)!;
    expect([...exported.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [name, data] of files) expect(exported.get(name)!.equals(data), name).toBe(true);
    expect(importFiles(db, exported).outcome).toBe("unchanged");
  }
}

describe("version-4 bundles in the studio", () => {
  const record = generatedRunRecord({ index: 7, seed: 4 });

  it("computes the same base from the database as a runner does from the workspace source", () => {
    const db = seeded(record);
    const studio = instanceWorkspaceBase(db, record.manifest.instanceId)!;
    const runner = workspaceBaseOfSource(instanceWorkspaceSource(db, record.manifest.instanceId));
    expect(studio.digest).toBe(runner.digest);
    expect(studio.bytes.equals(runner.bytes)).toBe(true);
  });

  it("computes the same base on a remote worker, from what the studio's worker API serves", async () => {
    const db = seeded(record);
    const client: StudioClient = {
      url: "http://studio",
      async getJson(pathAndQuery, schema) {
        const url = new URL(pathAndQuery, "http://studio");
        const digest = url.searchParams.get("digest")!;
        return schema.parse(
          url.pathname === "/api/workers/instance"
            ? workerInstance(db, url.searchParams.get("id")!)
            : { digest, files: snapshotManifest(db, digest) },
        );
      },
      async post(_path, body) {
        const { hashes } = JSON.parse(String(body)) as { hashes: string[] };
        return { status: 200, data: await zipBuffer(contentsByHash(db, hashes, 1e9)) };
      },
    };
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "remote-base-"));
    try {
      const store = remoteBatchStore(client, { cacheDir, unpushedDir: cacheDir });
      const remote = workspaceBaseOfSource(await store.workspaceSource(record.manifest.instanceId));
      expect(remote.digest).toBe(instanceWorkspaceBase(db, record.manifest.instanceId)!.digest);
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
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

    expectSameRun(db, r3.runId, r4.runId);
    expectExportedAsImported(db, [
      [v3, r3.runId],
      [v4, r4.runId],
    ]);
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

describeWithTestData(
  "version-4 bundles of runs on the five DevEval repositories",
  "deveval/data.real5.jsonl",
  (data) => {
    let db: Db;
    let built: BuiltBenchmark;
    beforeAll(async () => {
      built = await buildBesideMetadata(data, 50);
      db = createDb(":memory:");
      saveBenchmark(db, built, { name: "real5", source: "deveval", config: {} });
    });

    // A budget, not a hidden flake: ten runs imported twice and read back by every reader, about
    // 1 s a run on 2 cores shared with other work.
    it("gives every reader what the full bundle gives, for a fraction of the bytes", { timeout: 60_000 }, () => {
      // Two instances of each repository, of different subtasks: the target file edited, another file
      // deleted, one created.
      const picked = new Map<string, Instance>();
      for (const b of built.instances) {
        const ofProject = [...picked.keys()].filter((k) => k.startsWith(`${b.projectPath} `));
        if (ofProject.length < 2) picked.set(`${b.projectPath} ${b.instance.subtask}`, b.instance);
      }
      let fullBytes = 0;
      let deltaBytes = 0;
      [...picked.values()].forEach((instance, i) => {
        const source = instanceWorkspaceSource(db, instance.id);
        const before = withOverlay(source.base, source.overlay);
        const after: WorkspaceFiles = new Map(before);
        const paths = [...before.keys()].sort();
        const target = instance.groundTruth.originalFile ?? paths[0]!;
        if (after.has(target))
          after.set(target, { ...after.get(target)!, data: Buffer.from("def done():\n    pass\n") });
        after.delete(paths.find((p) => p !== target)!);
        after.set("scratch_test.py", { data: Buffer.from("print('ok')\n"), mode: 0o100644 });
        const template = generatedRunRecord({ index: i, seed: 8, steps: 5 });
        const record: RunRecord = {
          ...template,
          manifest: { ...template.manifest, runId: `real-${i}`, benchmark: "real5", instanceId: instance.id },
          before,
          after,
          instance: null,
        };
        const { v3, v4 } = bundlesOf(db, record);
        const r3 = importFiles(db, v3, "v3");
        const r4 = importFiles(db, v4, "v4");
        expectSameRun(db, r3.runId, r4.runId);
        expectExportedAsImported(db, [[v4, r4.runId]]);
        for (const member of [BUNDLE_MEMBERS.workspaceBefore, BUNDLE_MEMBERS.workspaceAfter]) {
          fullBytes += v3.get(member)!.length;
          deltaBytes += v4.get(member)!.length;
        }
      });
      expect(picked.size).toBe(10);
      expect(deltaBytes * 5).toBeLessThan(fullBytes);
    });
  },
);
