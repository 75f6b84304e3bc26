import { describe, expect, it } from "vitest";
import { createDb } from "../client";
import { dropRunIndexes, restoreIndexes } from "./bulk-indexes";

const INDEXES = "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name";

describe("dropRunIndexes and restoreIndexes", () => {
  it("drop the run tables' secondary indexes but the facts' run id, and build exactly the migrated ones back", () => {
    const db = createDb(":memory:");
    const reference = createDb(":memory:");
    const before = db.$client.prepare(INDEXES).all();
    const dropped = dropRunIndexes(db);
    expect(dropped).toContain("run_facts_filters");
    expect(dropped).toContain("verdicts_judge_metric");
    expect(dropped).not.toContain("run_facts_run_id_unique");
    expect(dropped).not.toContain("jobs_status");
    expect(db.$client.prepare(INDEXES).all()).toHaveLength(before.length - dropped.length);
    expect(restoreIndexes(db, reference).sort()).toEqual([...dropped].sort());
    expect(db.$client.prepare(INDEXES).all()).toEqual(before);
    // Nothing missing: nothing to build.
    expect(restoreIndexes(db, reference)).toEqual([]);
  });
});
