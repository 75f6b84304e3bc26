import Database from "better-sqlite3";
import { E2E_DB } from "../playwright.config";

/**
 * The benchmark e2e/ablation.spec.ts runs a real (scripted) ablation on: the sample corpus again
 * (e2e/seed.ts). Its id sorts after "sample" (the pages' default benchmark) and does not contain it.
 */
export const REAL_ABLATION_BENCHMARK = "scripted-ablation";
/** A third copy of the sample corpus, for the runs remote workers push (e2e/distributed.spec.ts); it sorts after "sample" too. */
export const DISTRIBUTED_BENCHMARK = "worker-runs";

/** Reads the e2e database directly, so specs check pages against independently computed values. */
export function queryAll<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(E2E_DB, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

export function countRows(table: string): number {
  return queryAll<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)[0]!.n;
}
