/** Test setup shared by the CLI tests: the sample benchmark built into a fresh database, CLI io, queries. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll } from "vitest";
import { createDb, type Db } from "@/db/client";
import { saveBenchmark } from "@/db/queries/benchmarks";
import type { BuiltBenchmark } from "@/lib/benchmark/build";
import { buildSampleBenchmark } from "@/lib/benchmark/sample-benchmark";
import { captureIo } from "@/lib/cli/cli-io.fixture";

/** Builds the sample corpus as benchmark "sample" and stores it in `db`. */
export async function saveSampleBenchmark(db: Db, sourceCodeDir?: string): Promise<BuiltBenchmark> {
  const built = await buildSampleBenchmark(sourceCodeDir);
  saveBenchmark(db, built, { name: "sample", source: "sample-corpus", config: {} });
  return built;
}

/** A CLI's io on the database at `dbPath`, with what it printed. */
export const cliIo = (dbPath: string) => captureIo({ NODE_ENV: "test", STUDIO_DB: dbPath });

/** Rows from the database at `dbPath`, read-only. */
export function queryDb<T>(dbPath: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/**
 * A temporary folder whose `studio.db` holds the sample benchmark, made before this file's tests
 * and removed after them; with a CLI io and read-only queries on that database.
 */
export function sampleDatabase(prefix: string) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dbPath = path.join(work, "studio.db");
  beforeAll(async () => {
    const db = createDb(dbPath);
    try {
      await saveSampleBenchmark(db);
    } finally {
      db.$client.close();
    }
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  return {
    work,
    dbPath,
    io: () => cliIo(dbPath),
    query: <T>(sql: string, ...params: unknown[]) => queryDb<T>(dbPath, sql, ...params),
  };
}
