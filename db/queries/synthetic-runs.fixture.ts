/**
 * Test support: scale runs written the way any run import writes, one row at a time with the
 * dashboard's insert triggers live. For databases at an older migration (whose derived tables
 * lack later columns) and as the reference bulk-facts.ts is checked against.
 */
import type { ScaleRun } from "@/lib/dashboard/scale-runs";
import type { Db } from "../client";
import { indexRunText } from "./run-search";
import { writeScaleRuns } from "./synthetic-runs";

export function insertScaleRunsThroughTriggers(db: Db, runs: readonly ScaleRun[]): number {
  return db.transaction(() => {
    const ids = writeScaleRuns(db, runs);
    for (const id of ids) indexRunText(db, id);
    return ids.length;
  });
}
