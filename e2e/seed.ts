/**
 * Builds the e2e database from scratch: 60 synthetic scripted runs (two pages of the runs list),
 * imported through the same parse + transaction as `npm run ingest`.
 */
import fs from "node:fs";
import { createDb, databasePathFromEnv } from "@/db/client";
import { importParsedBundle } from "@/db/queries/run-import";
import { parseBundle } from "@/lib/bundle/parse";
import { syntheticRun } from "@/lib/bundle/synthetic";
import { bundleFilesOf } from "@/lib/bundle/write";

export const SEEDED_RUNS = 60;

const file = databasePathFromEnv();
for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
const db = createDb(file);
for (let i = 0; i < SEEDED_RUNS; i++) {
  const label = `seed-${i}`;
  importParsedBundle(db, parseBundle(bundleFilesOf(syntheticRun({ index: i, seed: 11 })), label), { via: "cli" });
}
db.$client.close();
console.log(`seeded ${SEEDED_RUNS} runs into ${file}`);
