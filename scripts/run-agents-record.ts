/**
 * Storing a finished run: its bundle validated, written under the run folder and imported in one
 * transaction. A run whose bundle cannot be stored whole (refused by the parser, a database
 * error) is still recorded, as a failed run that says why, without its trajectory and files; a run
 * that cannot be recorded at all leaves nothing on disk.
 */
import path from "node:path";
import type { Db } from "@/db/client";
import { importParsedBundle } from "@/db/queries/run-import";
import { parseBundle } from "@/lib/bundle/parse";
import type { RunManifest } from "@/lib/bundle/schema";
import { bundleFilesOf, writeBundleFolder, type RunRecord } from "@/lib/bundle/write";
import { removeTree } from "@/lib/runner/copy-tree";
import { cutError } from "@/lib/runner/record-run";

export interface StoredRun {
  status: RunManifest["status"];
  /** `summary`: only the failed-run summary could be stored (the error says why). */
  kept: "whole" | "summary";
}

async function store(db: Db, record: RunRecord, runDir: string): Promise<void> {
  const bundleDir = path.join(runDir, "bundle");
  const files = bundleFilesOf(record);
  // Validated before it is written: a bundle the importer would refuse never lands on disk.
  const parsed = parseBundle(files, bundleDir);
  await removeTree(bundleDir);
  await writeBundleFolder(bundleDir, files);
  importParsedBundle(db, parsed, { via: "runner" });
}

/** The run as a failed run with the reason its bundle could not be stored: no steps, no files. */
export function summaryOf(record: RunRecord, problem: string): RunRecord {
  const own = record.manifest.error ? `; the run's own error: ${record.manifest.error}` : "";
  const error = `the run could not be stored whole (${problem}); only this summary was kept${own}`;
  return {
    manifest: {
      ...record.manifest,
      status: "failed",
      exitReason: "error",
      error: cutError(error),
    },
    steps: [],
    before: new Map(),
    after: new Map(),
    instance: record.instance ?? null,
  };
}

export async function storeRun(db: Db, record: RunRecord, runDir: string): Promise<StoredRun> {
  try {
    await store(db, record, runDir);
    return { status: record.manifest.status, kept: "whole" };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    try {
      await store(db, summaryOf(record, problem), runDir);
    } catch {
      throw error; // not even the summary: the caller reports the first reason
    }
    return { status: "failed", kept: "summary" };
  }
}
