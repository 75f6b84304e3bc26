import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf } from "@/lib/bundle/write";
import { compareConfigurations } from "@/lib/dashboard/compare";
import { prepareOverviewTables } from "@/lib/dashboard/overview";
import { scaleRun } from "@/lib/dashboard/scale-runs";
import { createDb } from "../client";
import { configOptions, pairedRuns } from "./compare";
import { resolveDashboardScope } from "./dashboard-scope";
import { compareView, overviewView } from "./dashboard-views";
import { overviewGroups } from "./overview";
import { importParsedBundle } from "./run-import";
import { insertScaleRuns, scaleInstances } from "./synthetic-runs";

/** 20 imported runs give benchmark "synthetic" its instances; 200 judged scale runs go on top. */
function seeded() {
  const db = createDb(":memory:");
  for (let i = 0; i < 20; i++) {
    importParsedBundle(db, parseBundle(bundleFilesOf(generatedRunRecord({ index: i, seed: 4 })), `b${i}`), {
      via: "cli",
    });
  }
  insertScaleRuns(
    db,
    Array.from({ length: 200 }, (_, i) => scaleRun(i, 5, scaleInstances(db, "synthetic"))),
  );
  return db;
}

describe("what a dashboard page shows and its export writes", () => {
  const db = seeded();
  const scope = resolveDashboardScope(db, {});
  if (scope.kind !== "ok" || scope.judgeId === null) throw new Error("expected judged runs");
  const judged = { benchmarkId: scope.benchmarkId, judgeId: scope.judgeId };

  it("overview: the filter the page's parameters ask for, its groups and their tables", () => {
    const view = overviewView(db, { split: "all", family: undefined, subtask: undefined }, judged);
    expect(view.filter).toEqual({ ...judged, split: "all", family: undefined, subtaskId: undefined });
    expect(view.groups).toEqual(overviewGroups(db, view.filter));
    expect(view.groups.length).toBeGreaterThan(0);
    expect(view.tables).toEqual(prepareOverviewTables(view.groups));
  });

  it("compare: the first two configurations unless asked, and no comparison of one with itself", () => {
    const configs = configOptions(db, judged.benchmarkId, judged.judgeId);
    expect(configs.length).toBeGreaterThan(1);
    const [first, second] = [configs[0]!.id, configs[1]!.id];
    const view = compareView(db, {}, judged);
    expect(view).toMatchObject({ configs, a: first, b: second });
    expect(view.comparison).toEqual(compareConfigurations(pairedRuns(db, { ...judged, a: first, b: second })));
    expect(compareView(db, { a: second, b: second }, judged).comparison).toBeNull();
  });
});
