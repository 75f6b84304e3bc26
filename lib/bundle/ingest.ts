/**
 * The import pipeline, framework-free: find bundles under the given paths, read and parse them
 * concurrently, and hand each parsed bundle to `write` (one transaction each, done by the caller).
 * A bad bundle is reported and skipped; the good ones still land.
 */
import fs from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { AppError } from "@/lib/errors/app-error";
import type { ParsedBundle } from "./parse";
import { parseBundle } from "./parse";
import { archiveKindOf, readArchiveFile, readBundleFolder, type BundleFiles, type ReadLimits } from "./read";
import { BUNDLE_MEMBERS } from "./schema";

/** Where one bundle comes from; plain data, so it can be handed to a parsing worker. */
export interface BundleSource {
  kind: "folder" | "archive";
  path: string;
  /** How the bundle is named in messages: its path as given. */
  label: string;
}

export function loadBundleSource(source: BundleSource, limits: ReadLimits): Promise<BundleFiles> {
  return source.kind === "folder"
    ? readBundleFolder(source.path, source.label, limits)
    : readArchiveFile(source.path, source.label, limits);
}

/** Reads and parses one bundle on this thread. */
export async function loadAndParse(source: BundleSource, limits: ReadLimits): Promise<ParsedBundle> {
  return parseBundle(await loadBundleSource(source, limits), source.label, limits.maxJsonBytes);
}

/**
 * A file that is not a bundle: a candidate foreign log (lib/foreign). Named on the command line it
 * must be one; found while scanning a folder (by FOREIGN_LOG_NAME) it is skipped if no format knows it.
 */
export interface LogCandidate {
  path: string;
  named: boolean;
}

/** File names a folder scan takes as candidate foreign logs. */
export const FOREIGN_LOG_NAME = /\.(json|jsonl|traj|eval|diff|patch)$/i;

export interface DiscoveryResult {
  sources: BundleSource[];
  logs: LogCandidate[];
  problems: { path: string; message: string }[];
}

/** A bundle folder, a folder holding bundle folders and archives (searched recursively), or an archive. */
export async function discoverBundles(paths: readonly string[]): Promise<DiscoveryResult> {
  const sources: BundleSource[] = [];
  const logs: LogCandidate[] = [];
  const problems: DiscoveryResult["problems"] = [];
  for (const given of paths) {
    const stat = await fs.stat(given).catch(() => null);
    if (!stat) {
      problems.push({ path: given, message: "no such file or folder" });
      continue;
    }
    if (stat.isFile()) {
      if (archiveKindOf(given)) sources.push(archiveSource(given));
      else logs.push({ path: given, named: true });
      continue;
    }
    if (!stat.isDirectory()) {
      const kind = stat.isFIFO() ? "a FIFO" : stat.isSocket() ? "a socket" : "a device";
      problems.push({ path: given, message: `is ${kind}, not a file or folder: not read` });
      continue;
    }
    const before = logs.length;
    const found = await findBundlesUnder(given, problems, logs);
    if (found.length === 0 && logs.length === before)
      problems.push({
        path: given,
        message: "no bundle found (no manifest.json, no archive, no agent log) under this folder",
      });
    sources.push(...found);
  }
  return { sources, logs, problems };
}

async function findBundlesUnder(
  dir: string,
  problems: DiscoveryResult["problems"],
  logs: LogCandidate[],
): Promise<BundleSource[]> {
  const hasManifest = await fs
    .stat(path.join(dir, BUNDLE_MEMBERS.manifest))
    .then((s) => s.isFile())
    .catch(() => false);
  if (hasManifest) return [folderSource(dir)];
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    problems.push({ path: dir, message: `cannot be listed (${error.code ?? error.message})` });
    return [];
  });
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  // A folder with a bundle's other members but no manifest is a broken bundle, not a plain folder.
  if (entries.some((e) => e.name === BUNDLE_MEMBERS.trajectory || (e.name === "workspace" && e.isDirectory()))) {
    problems.push({
      path: dir,
      message: "looks like a bundle (trajectory.jsonl or workspace/) but has no manifest.json",
    });
    return [];
  }
  const found: BundleSource[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await findBundlesUnder(full, problems, logs)));
    else if (entry.isFile() && archiveKindOf(entry.name)) found.push(archiveSource(full));
    else if (entry.isFile() && FOREIGN_LOG_NAME.test(entry.name)) logs.push({ path: full, named: false });
  }
  return found;
}

export function folderSource(dir: string): BundleSource {
  return { kind: "folder", path: dir, label: dir };
}

export function archiveSource(file: string): BundleSource {
  return { kind: "archive", path: file, label: file };
}

export type IngestOutcome =
  | {
      label: string;
      ok: true;
      runId: string;
      outcome: "imported" | "unchanged" | "replaced";
      /** What of a foreign log could not be used, the run still imported. */
      warnings?: string[];
    }
  | { label: string; ok: false; error: string };

export interface IngestOptions {
  limits: ReadLimits;
  /**
   * Bundles in flight at once: their file reads overlap on libuv's thread pool while this thread
   * hashes, validates and writes. Worker threads were measured slower on 2 cores (bench:ingest:
   * 180 bundles/s in-thread vs 76-152 with 1-2 parsing workers), the structured clone of each
   * parsed bundle costing more than the parse saved.
   */
  concurrency: number;
  write: (bundle: ParsedBundle) => { runId: string; outcome: "imported" | "unchanged" | "replaced" };
  onResult?: (result: IngestOutcome) => void;
}

export async function ingestBundles(
  sources: readonly BundleSource[],
  options: IngestOptions,
): Promise<IngestOutcome[]> {
  const limit = pLimit(Math.max(1, options.concurrency));
  const results = await Promise.all(
    sources.map((source) =>
      limit(async (): Promise<IngestOutcome> => {
        let result: IngestOutcome;
        try {
          const parsed = await loadAndParse(source, options.limits);
          result = { label: source.label, ok: true, ...options.write(parsed) };
        } catch (error) {
          result = { label: source.label, ok: false, error: describeError(error, source.label) };
        }
        options.onResult?.(result);
        return result;
      }),
    ),
  );
  return results;
}

function describeError(error: unknown, label: string): string {
  if (error instanceof AppError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `${label}: ${message}`;
}
