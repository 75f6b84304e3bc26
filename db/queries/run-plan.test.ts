import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { createDb } from "../client";
import { agentConfigId, importParsedBundle } from "./run-import";
import { pickInstances, planRuns, runIdOf } from "./run-plan";

/** Twelve instances of the synthetic benchmark; the first one already run by its configuration under its planned id. */
function seeded() {
  const db = createDb(":memory:");
  const runs = Array.from({ length: 12 }, (_, i) => generatedRunRecord({ index: i, seed: 6 }));
  const configId = agentConfigId(runs[0]!.manifest.agent);
  runs.forEach((run, i) => {
    if (i === 0) run.manifest.runId = runIdOf(configId, run.manifest.instanceId);
    importParsedBundle(db, parseBundle(bundleFilesOf(run), `b${i}`), { via: "cli" });
  });
  return { db, runs, configId };
}

const subtaskOf = (instanceId: string) => instanceId.split("/")[1];

describe("run plan", () => {
  it("names a run by its configuration and instance, the same every time", () => {
    expect(runIdOf("cfg", "a/b")).toBe(runIdOf("cfg", "a/b"));
    expect(runIdOf("cfg", "a/b")).toMatch(/^cfg-[0-9a-f]{16}$/);
    expect(runIdOf("cfg", "a/c")).not.toBe(runIdOf("cfg", "a/b"));
  });

  it("skips what the configuration already ran, spreads per subtask and stops at the limit", () => {
    const { db, runs, configId } = seeded();
    const request = { benchmarkId: "synthetic", splitOnly: false, configId };
    const all = planRuns(db, request);
    const instances = new Set(runs.map((r) => r.manifest.instanceId)).size;
    expect(all).toMatchObject({ matched: instances, alreadyRun: 1 });
    expect(all.todo).toHaveLength(instances - 1);
    expect(all.todo.map((r) => r.instance.id)).not.toContain(runs[0]!.manifest.instanceId);
    expect(all.todo.every((r) => r.runId === runIdOf(configId, r.instance.id))).toBe(true);
    // Another configuration has run nothing.
    expect(planRuns(db, { ...request, configId: "other" }).alreadyRun).toBe(0);

    const spread = planRuns(db, { ...request, perSubtask: 1 }).todo;
    const subtasks = spread.map((r) => r.instance.subtaskId);
    expect(new Set(subtasks).size).toBe(subtasks.length);
    expect(planRuns(db, { ...request, limit: 2 }).todo).toEqual(all.todo.slice(0, 2));
  });

  it("picks the same instances for every configuration, whatever each already ran", () => {
    const { db, runs, configId } = seeded();
    const request = { benchmarkId: "synthetic", splitOnly: false, perSubtask: 1 };
    const picked = pickInstances(db, request);
    // The first instance of each subtask by id, the one configId already ran included.
    const ids = [...new Set(runs.map((r) => r.manifest.instanceId))].sort();
    const firsts = ids.filter((id, i) => ids.findIndex((other) => subtaskOf(other) === subtaskOf(id)) === i);
    expect(picked.map((r) => r.id).sort()).toEqual(firsts);
    const first = runs[0]!.manifest.instanceId;
    expect(pickInstances(db, { ...request, limit: 2 })).toEqual(picked.slice(0, 2));
    const plan = planRuns(db, { benchmarkId: "synthetic", splitOnly: false, configId, instanceIds: firsts });
    expect(plan.matched).toBe(firsts.length);
    expect(plan.todo.map((r) => r.instance.id).sort()).toEqual(firsts.filter((id) => id !== first));
    expect(() =>
      planRuns(db, { benchmarkId: "synthetic", splitOnly: false, configId, instanceIds: [...firsts, "synthetic/x"] }),
    ).toThrow('--instances: 1 instance(s) not in benchmark "synthetic" under these filters, e.g. "synthetic/x"');
  });

  it("splits the matching instances into shards that cover each exactly once, whatever already ran", () => {
    const { db, runs, configId } = seeded();
    const request = { benchmarkId: "synthetic", splitOnly: false, configId };
    const all = planRuns(db, request);
    const instances = [...new Set(runs.map((r) => r.manifest.instanceId))].sort();
    for (const count of [1, 2, 3, 5, instances.length + 2]) {
      const shards = Array.from({ length: count }, (_, i) =>
        planRuns(db, { ...request, shard: { index: i + 1, count } }),
      );
      // Every matching instance in exactly one shard; the sizes differ by at most one.
      const matched = shards.map((plan) => plan.matched);
      expect(matched.reduce((a, b) => a + b, 0)).toBe(instances.length);
      expect(Math.max(...matched) - Math.min(...matched)).toBeLessThanOrEqual(1);
      const planned = shards.flatMap((plan) => plan.todo.map((r) => r.instance.id));
      expect(new Set(planned).size).toBe(planned.length);
      expect(planned.sort()).toEqual(all.todo.map((r) => r.instance.id).sort());
      expect(shards.reduce((n, plan) => n + plan.alreadyRun, 0)).toBe(1);
    }
    // The same shard every time, and a limit applies within it.
    const second = { ...request, shard: { index: 2, count: 3 } };
    expect(planRuns(db, second)).toEqual(planRuns(db, second));
    expect(planRuns(db, { ...second, limit: 1 }).todo).toEqual(planRuns(db, second).todo.slice(0, 1));
    expect(() => planRuns(db, { ...request, shard: { index: 4, count: 3 } })).toThrow(
      "shard 4/3: expected i/n with 1 <= i <= n (e.g. 2/4)",
    );
  });

  it("refuses a request no instance matches, naming it", () => {
    const { db, configId } = seeded();
    expect(() => planRuns(db, { benchmarkId: "synthetic", splitOnly: true, configId })).toThrow(
      'benchmark "synthetic" has no such instances (split eval)',
    );
    expect(() => planRuns(db, { benchmarkId: "nope", splitOnly: false, subtask: "codegen_file", configId })).toThrow(
      'benchmark "nope" has no such instances (split all, codegen_file)',
    );
  });
});
