/**
 * Foreign logs into run bundles: read each file (bounded, never through a link or a FIFO), find
 * its format by content (or take the one forced with `--format`), read its runs, and build one
 * bundle per run (to-bundle.ts). Used by `npm run ingest`, `POST /api/runs/import?format=` and
 * `npm run audit`; a bad file is reported and skipped, the others still go in.
 */
import fs from "node:fs/promises";
import { parseBundle, type ParsedBundle } from "@/lib/bundle/parse";
import { AppError } from "@/lib/errors/app-error";
import { detectFormat, FOREIGN_FORMATS, foreignFormat } from "./formats";
import { foreignBundle, type ForeignBundleOptions } from "./to-bundle";
import { ForeignFormatError, type ForeignFile, type ForeignFormat, type ForeignRun } from "./types";

/** The largest foreign file read (an OpenHands output.jsonl of a full SWE-bench run is ~300 MB). */
export const MAX_FOREIGN_FILE_BYTES = 512 * 1024 * 1024;

export interface ForeignImportOptions extends ForeignBundleOptions {
  /** A format id (`--format`): skips detection. */
  format?: string | null;
}

/**
 * Reads a file the user named: a regular file (not a link, FIFO or device), at most `maxBytes`.
 * What was opened is checked again (a file swapped for a FIFO or a device between the lstat and
 * the open), and at most the size it had then is read.
 */
export async function readForeignFile(filePath: string, maxBytes = MAX_FOREIGN_FILE_BYTES): Promise<ForeignFile> {
  const stat = await fs.lstat(filePath).catch(() => null);
  if (!stat) throw new AppError("INVALID_INPUT", `${filePath}: no such file`);
  if (stat.isSymbolicLink())
    throw new AppError("INVALID_INPUT", `${filePath}: is a symbolic link; name the file itself`);
  checkRegularFile(filePath, stat, maxBytes);
  const handle = await fs.open(filePath, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    const opened = await handle.stat();
    checkRegularFile(filePath, opened, maxBytes);
    const data = Buffer.alloc(opened.size);
    let filled = 0;
    while (filled < data.length) {
      const { bytesRead } = await handle.read(data, filled, data.length - filled, filled);
      if (bytesRead === 0) break; // shrank while read
      filled += bytesRead;
    }
    return { name: filePath, data: data.subarray(0, filled) };
  } finally {
    await handle.close();
  }
}

function checkRegularFile(filePath: string, stat: { isFile(): boolean; size: number }, maxBytes: number): void {
  if (!stat.isFile()) throw new AppError("INVALID_INPUT", `${filePath}: not a regular file`);
  if (stat.size > maxBytes)
    throw new AppError(
      "INVALID_INPUT",
      `${filePath}: ${stat.size} bytes, over the ${maxBytes}-byte limit of a foreign log`,
    );
}

/** The format of a file: the forced one, or the first whose detector accepts it; a clear error otherwise. */
export function formatOf(file: ForeignFile, forced: string | null | undefined): ForeignFormat {
  if (forced) {
    const format = foreignFormat(forced);
    if (!format) {
      throw new AppError(
        "INVALID_INPUT",
        `unknown format "${forced}"; known: ${FOREIGN_FORMATS.map((f) => f.id).join(", ") || "(none)"}`,
      );
    }
    return format;
  }
  const format = detectFormat(file);
  if (!format) {
    throw new ForeignFormatError(
      file.name,
      null,
      `not a run bundle and not a log of a known agent (tried ${FOREIGN_FORMATS.length} formats: ${FOREIGN_FORMATS.map((f) => f.id).join(", ")}); force one with --format`,
    );
  }
  return format;
}

export interface ReadForeign {
  file: ForeignFile;
  format: ForeignFormat;
  runs: ForeignRun[];
}

/** The runs of one file; the other files of the import are its siblings (a Gemini CLI session beside its stream). */
export function readRuns(file: ForeignFile, siblings: readonly ForeignFile[], forced?: string | null): ReadForeign {
  const format = formatOf(file, forced);
  const runs = format.read(file, { siblings: siblings.filter((s) => s !== file) });
  return { file, format, runs };
}

export type ForeignOutcome =
  | { label: string; ok: true; bundle: ParsedBundle; format: string; warnings: string[] }
  | { label: string; ok: false; error: string };

/** Every run of every file as a parsed bundle, or the error that kept it out (naming the file and where). */
export async function foreignBundles(
  files: readonly ForeignFile[],
  options: ForeignImportOptions,
  onOutcome?: (outcome: ForeignOutcome) => void,
): Promise<ForeignOutcome[]> {
  const outcomes: ForeignOutcome[] = [];
  const report = (outcome: ForeignOutcome) => {
    outcomes.push(outcome);
    onOutcome?.(outcome);
  };
  for (const file of files) {
    let read: ReadForeign;
    try {
      read = readRuns(file, files, options.format);
    } catch (error) {
      report({ label: file.name, ok: false, error: describe(error, file.name) });
      continue;
    }
    if (read.runs.length === 0) {
      // A companion (a Gemini CLI session beside its stream, a Codex rollout beside its exec
      // output) is read into its partner's run; alone, a file without a run is an error.
      if (files.length === 1)
        report({ label: file.name, ok: false, error: `${file.name}: the ${read.format.label} holds no run` });
      continue;
    }
    for (const run of read.runs) {
      const label = run.index === 0 && read.runs.length === 1 ? file.name : `${file.name}#${run.index}`;
      try {
        const built = await foreignBundle(file, read.format, run, options);
        const bundle = parseBundle(built.files, label);
        report({ label, ok: true, bundle, format: read.format.id, warnings: built.warnings });
      } catch (error) {
        report({ label, ok: false, error: describe(error, label) });
      }
    }
  }
  return outcomes;
}

function describe(error: unknown, label: string): string {
  if (error instanceof ForeignFormatError || error instanceof AppError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith(label) ? message : `${label}: ${message}`;
}
