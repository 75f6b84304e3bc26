/**
 * Deferred secondary indexes for a bulk load into an (almost) empty database: seed:scale drops the
 * run tables' secondary indexes before its first batch and builds them once, sorted, after its
 * last. Kept, the 16 indexes made each run cost about twice as much to write at 200,000 runs
 * (493 runs/s with them, 1,099 without, same batches), and more as the tables outgrow the page
 * cache: the token, cost and duration indexes take their keys in random order.
 *
 * The definitions come from a reference database built from the migrations, so an interrupted
 * load loses nothing: the next call of restoreIndexes creates whatever is missing.
 */
import type { Db } from "../client";

/** The tables a run's rows go to. */
const RUN_TABLES = ["runs", "trajectory_steps", "file_changes", "verdicts", "run_facts", "run_judge_masks"];

/**
 * Kept while loading: the bulk fill finds each new run's facts row by run id (bulk-facts.ts).
 * Primary keys (SQLite's autoindexes) cannot be dropped and stay too.
 */
const KEPT = new Set(["run_facts_run_id_unique"]);

interface IndexRow {
  name: string;
  sql: string;
}

function secondaryIndexes(db: Db): IndexRow[] {
  return db.$client
    .prepare<string[], IndexRow>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
        AND tbl_name IN (${RUN_TABLES.map(() => "?").join(", ")}) ORDER BY name`,
    )
    .all(...RUN_TABLES)
    .filter((index) => !KEPT.has(index.name));
}

/** Drops the run tables' secondary indexes (restoreIndexes builds them again); returns their names. */
export function dropRunIndexes(db: Db): string[] {
  const indexes = secondaryIndexes(db);
  db.transaction(() => {
    for (const { name } of indexes) db.$client.exec(`DROP INDEX "${name}"`);
  });
  return indexes.map((index) => index.name);
}

/**
 * Creates every index of the run tables that `reference` (a database the migrations built) has and
 * `db` lacks; returns their names.
 */
export function restoreIndexes(db: Db, reference: Db): string[] {
  const present = new Set(secondaryIndexes(db).map((index) => index.name));
  const missing = secondaryIndexes(reference).filter((index) => !present.has(index.name));
  for (const { sql } of missing) db.$client.exec(sql);
  return missing.map((index) => index.name);
}
