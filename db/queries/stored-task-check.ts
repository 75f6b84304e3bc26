/**
 * A run's stored task check (task_checks): read by the run page and, as evidence, by the
 * evaluation's loader; written by task-checks.ts.
 */
import { eq, sql } from "drizzle-orm";
import type { TaskCheckOutcome, TaskCheckView } from "@/lib/runs/types";
import type { Db } from "../client";
import { preparedPerConnection } from "../prepared";
import * as t from "../schema";

/** Prepared once per connection: the rule judge reads one per run. */
const taskCheckQuery = preparedPerConnection((db) =>
  db
    .select()
    .from(t.taskChecks)
    .where(eq(t.taskChecks.runId, sql.placeholder("id")))
    .prepare(),
);

export function taskCheckOf(db: Db, runId: string): TaskCheckView | null {
  const row = taskCheckQuery(db).get({ id: runId });
  if (!row) return null;
  const { runId: _runId, ...check } = row;
  return { ...check, outcome: check.outcome as TaskCheckOutcome };
}
