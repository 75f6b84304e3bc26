import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { CATALOG_SUBTASKS } from "@/lib/benchmark/subtasks";
import { syncMetricBits } from "./metric-bits";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** The default database file; `STUDIO_DB` overrides it (`:memory:` for a throw-away one). */
export const DEFAULT_DB_PATH = "data/studio.db";

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

export function databasePathFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.STUDIO_DB && env.STUDIO_DB.trim() !== "" ? env.STUDIO_DB : DEFAULT_DB_PATH;
}

/**
 * Opens (creating if needed) a database: WAL, foreign keys, busy timeout, migrations applied,
 * the subtask catalog and the metric catalog's bits in place. Every entry point (app, CLIs,
 * tests) goes through here.
 */
export function createDb(filename: string = databasePathFromEnv()): Db {
  if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  const sqlite = new Database(filename);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 10000");
  // Temporary tables (the runs browser's search hits) stay in memory.
  sqlite.pragma("temp_store = MEMORY");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  ensureSubtaskCatalog(db);
  syncMetricBits(db);
  // SQLite's advice for long-lived connections: refresh planner statistics that are missing or
  // stale (bounded work per index), so dashboard queries keep walking the right index.
  sqlite.pragma("analysis_limit = 1000");
  sqlite.pragma("optimize = 0x10002");
  return db;
}

function ensureSubtaskCatalog(db: Db): void {
  db.transaction((tx) => {
    CATALOG_SUBTASKS.forEach((subtask, position) => {
      tx.insert(schema.subtasks)
        .values({ id: subtask.id, family: subtask.family, label: subtask.label, position })
        .onConflictDoUpdate({
          target: schema.subtasks.id,
          set: { family: subtask.family, label: subtask.label, position },
        })
        .run();
    });
  });
}

/**
 * A read-only connection to a database another connection of this process created (createDb):
 * no migrations, no catalog writes. For worker threads that only read (npm run evaluate's judges).
 */
export function openDbReadOnly(filename: string): Db {
  const sqlite = new Database(filename, { readonly: true, fileMustExist: true });
  sqlite.pragma("busy_timeout = 10000");
  return drizzle(sqlite, { schema });
}
