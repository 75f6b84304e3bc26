import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { syntheticRun } from "@/lib/bundle/synthetic";
import { bundleFilesOf } from "@/lib/bundle/write";
import { createDb } from "../client";
import { importParsedBundle } from "./run-import";
import { listRuns } from "./runs";

function seeded(count: number) {
  const db = createDb(":memory:");
  for (let i = 0; i < count; i++) {
    importParsedBundle(db, parseBundle(bundleFilesOf(syntheticRun({ index: i, seed: 4 })), `b${i}`), { via: "cli" });
  }
  return db;
}

describe("listRuns", () => {
  it("returns an empty page on an empty database", () => {
    expect(listRuns(createDb(":memory:"), { limit: 10, offset: 0 })).toEqual({ rows: [], total: 0 });
  });

  it("lists runs newest first with their instance and agent configuration, paged", () => {
    const db = seeded(7);
    const first = listRuns(db, { limit: 5, offset: 0 });
    expect(first.total).toBe(7);
    expect(first.rows.map((r) => r.id)).toEqual(
      [6, 5, 4, 3, 2].map((i) => `synthetic-4-${String(i).padStart(6, "0")}`),
    );
    const row = first.rows[0]!;
    const run = syntheticRun({ index: 6, seed: 4 });
    expect(row).toMatchObject({
      benchmarkId: "synthetic",
      instanceId: run.manifest.instanceId,
      subtaskId: run.instance!.subtask,
      framework: "synthetic",
      model: run.manifest.agent.model,
      scripted: true,
      stepCount: 50,
      inputTokens: run.manifest.usage.inputTokens,
    });
    const second = listRuns(db, { limit: 5, offset: 5 });
    expect(second.rows).toHaveLength(2);
  });
});
