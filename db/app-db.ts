import { createDb, databasePathFromEnv, type Db } from "./client";

/**
 * The web app's one connection, opened on first use (migrations applied then). Kept on
 * globalThis so that dev-mode reloads do not open a new connection per edit.
 */
const holder = globalThis as typeof globalThis & { __studioDb?: Db };

export function getAppDb(): Db {
  holder.__studioDb ??= createDb(databasePathFromEnv());
  return holder.__studioDb;
}
