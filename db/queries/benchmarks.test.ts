import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBenchmark, type BuiltBenchmark } from "@/lib/benchmark/build";
import { parseDevEvalJsonl } from "@/lib/benchmark/deveval";
import { isBenchmarkSubtask } from "@/lib/benchmark/subtasks";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { createDb } from "../client";
import { importParsedBundle } from "./run-import";
import { createWorkspaceCache } from "@/lib/runner/workspace-cache";
import { getBenchmarkSummary, getInstance, listInstances, saveBenchmark } from "./benchmarks";
import { instanceWorkspaceSource } from "./instance-workspace";

const DATA = "data/sample-corpus/data.jsonl";
const samples = parseDevEvalJsonl(fs.readFileSync(DATA, "utf8"), DATA);
const meta = { name: "sample", source: "deveval", config: {} };
let built: BuiltBenchmark;

beforeAll(async () => {
  built = await buildBenchmark({
    benchmarkId: "sample",
    seed: 42,
    splitSize: 5,
    samples,
    sourceCodeDir: "data/sample-corpus/Source_Code",
  });
});

describe("benchmark storage", () => {
  it("stores instances, snapshots and split, and summarizes them per subtask", () => {
    const db = createDb(":memory:");
    const saved = saveBenchmark(db, built, meta);
    expect(saved).toMatchObject({ instances: built.instances.length, removed: 0, snapshots: built.snapshots.size });
    const summary = getBenchmarkSummary(db, "sample")!;
    expect(summary.total).toBe(built.instances.length);
    expect(summary.subtasks.map((s) => s.id)).not.toContain("external");
    for (const s of summary.subtasks) {
      if (!isBenchmarkSubtask(s.id)) continue;
      expect(s.instances).toBe(built.counts[s.id]);
      expect(s.inSplit).toBe(built.splitCounts[s.id]);
    }
    expect(
      listInstances(db, { benchmarkId: "sample", subtask: "testing", splitOnly: true, limit: 100, offset: 0 }).total,
    ).toBe(built.splitCounts.testing);
  });

  it("is idempotent and removes instances a rebuild no longer makes", () => {
    const db = createDb(":memory:");
    saveBenchmark(db, built, meta);
    const before = db.$client.serialize();
    expect(saveBenchmark(db, built, meta).removed).toBe(0);
    const fewer = { ...built, instances: built.instances.slice(1) };
    expect(saveBenchmark(db, fewer, meta).removed).toBe(1);
    saveBenchmark(db, built, meta);
    expect(getBenchmarkSummary(db, "sample")!.total).toBe(built.instances.length);
    expect(before.length).toBeGreaterThan(0);
  });

  it("never rewrites an instance that has runs: the runs keep the task they were made on", () => {
    const db = createDb(":memory:");
    saveBenchmark(db, built, meta);
    const target = built.instances[0]!;
    const run = generatedRunRecord({ index: 0, seed: 1 });
    run.manifest = { ...run.manifest, benchmark: "sample", instanceId: target.instance.id };
    importParsedBundle(db, parseBundle(bundleFilesOf({ ...run, instance: null }), "r"), { via: "cli" });
    const changed = {
      ...built,
      instances: built.instances.map((b, i) =>
        i === 0 ? { ...b, instance: { ...b.instance, prompt: "Something else entirely." } } : b,
      ),
    };
    expect(saveBenchmark(db, changed, meta).keptWithRuns).toBe(1);
    expect(getInstance(db, target.instance.id)!.instance.prompt).toBe(target.instance.prompt);
  });

  it("shows a code generation instance with the workspace file and the original", () => {
    const db = createDb(":memory:");
    saveBenchmark(db, built, meta);
    const instance = built.instances.find((b) => b.instance.subtask === "codegen_file")!;
    const detail = getInstance(db, instance.instance.id)!;
    expect(detail.instance).toEqual(instance.instance);
    expect(detail.workspaceFile?.content).toContain(instance.instance.groundTruth.docstring!);
    expect(detail.originalFile?.content).toContain(instance.instance.groundTruth.body!);
    expect(getInstance(db, "nope")).toBeNull();
  });

  it("gives an instance's workspace: the snapshot plus the instance's setup, written through the workspace cache", async () => {
    const db = createDb(":memory:");
    saveBenchmark(db, built, meta);
    const planted = built.instances.find((b) => b.instance.subtask === "delete_irrelevant_file")!;
    const source = instanceWorkspaceSource(db, planted.instance.id);
    expect(source.base.size).toBe(built.snapshots.get(planted.projectPath)!.size);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "materialize-"));
    try {
      const cache = createWorkspaceCache(path.join(work, "cache"));
      const dir = path.join(work, "workspace");
      const files = await cache.materialize(source, dir);
      expect(files.size).toBe(source.base.size + 1);
      const change = planted.setup[0]!;
      expect(fs.readFileSync(path.join(dir, change.path))).toEqual(change.content);
      await expect(cache.materialize(source, dir)).rejects.toThrow(/not empty/);
      expect(() => instanceWorkspaceSource(db, "nope")).toThrow(/not found/);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
