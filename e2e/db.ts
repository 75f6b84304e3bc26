import Database from "better-sqlite3";
import { E2E_DB } from "../playwright.config";

/** Reads the e2e database directly, so specs check the page against an independent count. */
export function countRows(table: string): number {
  const db = new Database(E2E_DB, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}
