/**
 * A run's stored task check (task_checks): read by the run page and, as evidence, by the
 * evaluation's loader; written by task-checks.ts.
 */
import { eq } from "drizzle-orm";
import type { TaskCheckOutcome, TaskCheckView } from "@/lib/runs/types";
import type { Db } from "../client";
import * as t from "../schema";

export function taskCheckOf(db: Db, runId: string): TaskCheckView | null {
  const row = db.select().from(t.taskChecks).where(eq(t.taskChecks.runId, runId)).get();
  if (!row) return null;
  const { runId: _runId, ...check } = row;
  return { ...check, outcome: check.outcome as TaskCheckOutcome };
}
