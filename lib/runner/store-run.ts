/**
 * Storing a finished run: its bundle validated, written under the run folder and imported in one
 * transaction. A run whose bundle cannot be stored whole (refused by the parser, a database
 * error) is still recorded, as a failed run that says why, without its trajectory and files; a run
 * that cannot be recorded at all leaves nothing on disk.
 */
import path from "node:path";
import { parseBundle, type ParsedBundle } from "@/lib/bundle/parse";
import type { RunManifest } from "@/lib/bundle/schema";
import type { BundleFiles } from "@/lib/bundle/read";
import { bundleFilesOf, writeBundleFolder, type RunRecord } from "@/lib/bundle/write";
import { AppError } from "@/lib/errors/app-error";
import { removeTree } from "./copy-tree";
import { cutError } from "./record-run";

export interface StoredRun {
  status: RunManifest["status"];
  /** `summary`: only the failed-run summary could be stored (the error says why). */
  kept: "whole" | "summary";
}

/**
 * Imports a validated bundle in one transaction (db/queries/run-import.ts `importParsedBundle`), or
 * pushes its files to a studio (lib/remote/remote-store.ts).
 */
export type ImportBundle = (bundle: ParsedBundle, files: BundleFiles) => void | Promise<void>;

async function store(importBundle: ImportBundle, record: RunRecord, runDir: string): Promise<void> {
  const bundleDir = path.join(runDir, "bundle");
  const files = bundleFilesOf(record);
  // Validated before it is written: a bundle the importer would refuse never lands on disk.
  const parsed = parseBundle(files, bundleDir);
  await removeTree(bundleDir);
  await writeBundleFolder(bundleDir, files);
  await importBundle(parsed, files);
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

export async function storeRun(importBundle: ImportBundle, record: RunRecord, runDir: string): Promise<StoredRun> {
  try {
    try {
      await store(importBundle, record, runDir);
    } catch (error) {
      // Refused against its base (the studio's snapshot of the repository was rebuilt since, or it
      // reads version 3 at most): the same run with full manifests. Not when the studio could not
      // be reached: that would only wait out its retries once more.
      if (!record.base || (error instanceof AppError && error.code === "UNAVAILABLE")) throw error;
      await store(importBundle, { ...record, base: null }, runDir);
    }
    return { status: record.manifest.status, kept: "whole" };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    try {
      await store(importBundle, summaryOf(record, problem), runDir);
    } catch {
      throw error; // not even the summary: the caller reports the first reason
    }
    return { status: "failed", kept: "summary" };
  }
}

/** After a run that could not be recorded: its workspace handed back (reset and pooled, or removed), its folder removed. */
export async function discardRun(runDir: string, release: (workspaceDir: string) => Promise<unknown>): Promise<void> {
  await release(path.join(runDir, "workspace")).catch(() => undefined);
  await removeTree(runDir);
}
