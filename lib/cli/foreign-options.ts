/**
 * The options every command taking runs made elsewhere shares (`npm run ingest`, `npm run audit`):
 * `--format`, `--contract`, `--gold`, `--repo`, `--benchmark`, declared once, and what they become.
 */
import type { OptionValues } from "@commander-js/extra-typings";
import type { LogCandidate } from "@/lib/bundle/ingest";
import { type Command, textOption } from "./args";
import { AppError } from "@/lib/errors/app-error";
import { readContractSource } from "@/lib/foreign/contract";
import { detectFormat, FOREIGN_FORMATS } from "@/lib/foreign/formats";
import { readForeignFile } from "@/lib/foreign/import";
import type { ForeignImportOptions } from "@/lib/foreign/import";
import { openRepo } from "@/lib/foreign/repo";
import type { ForeignBundleOptions } from "@/lib/foreign/to-bundle";
import type { ForeignFile } from "@/lib/foreign/types";

export function addForeignOptions<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) {
  return command
    .addOption(
      textOption(
        "--format <id>",
        `read every log as this format instead of detecting it (${FOREIGN_FORMATS.map((f) => f.id).join(", ")})`,
      ),
    )
    .addOption(
      textOption(
        "--contract <file>",
        "JSON boundary contract of the runs' tasks (mustRead, mayChange, expectedCreate, expectedDelete), or such contracts by instance id",
      ),
    )
    .addOption(
      textOption(
        "--gold <file>",
        "an SWE-bench-format dataset (JSON or JSONL with instance_id and patch): each instance's gold patch files become may-change",
      ),
    )
    .addOption(
      textOption(
        "--repo <dir[@rev]>",
        "the repository the runs started from: rebuilds the files before and after each diff",
      ),
    )
    .addOption(
      textOption(
        "--benchmark <id>",
        "the external benchmark of the runs, over what the log names (e.g. swe-bench-verified for logs that say swe-bench)",
      ),
    );
}

export interface ForeignFlags {
  format?: string;
  contract?: string;
  gold?: string;
  repo?: string;
  benchmark?: string;
}

/** What the flags mean: the contract source and repository opened, bad files named. */
export async function foreignOptionsFrom(
  flags: ForeignFlags,
  extra: Pick<ForeignBundleOptions, "ourInstance"> = {},
): Promise<ForeignImportOptions> {
  if (flags.contract && flags.gold) throw new AppError("INVALID_INPUT", "give --contract or --gold, not both");
  if (flags.format && !FOREIGN_FORMATS.some((f) => f.id === flags.format)) {
    throw new AppError(
      "INVALID_INPUT",
      `--format: unknown format "${flags.format}"; known: ${FOREIGN_FORMATS.map((f) => f.id).join(", ")}`,
    );
  }
  const contracts = flags.contract
    ? await asBadInput("--contract", readContractSource("contract", flags.contract))
    : flags.gold
      ? await asBadInput("--gold", readContractSource("gold", flags.gold))
      : null;
  const repo = flags.repo ? await asBadInput("--repo", openRepo(flags.repo)) : null;
  return {
    ...extra,
    format: flags.format ?? null,
    benchmark: flags.benchmark ?? null,
    contractFor: contracts ? (id) => contracts.contractFor(id) : undefined,
    repo,
  };
}

/** A flag's file that cannot be read or parsed is bad usage: one line naming the flag, exit 2. */
async function asBadInput<T>(flag: string, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof AppError && error.code === "INVALID_INPUT") throw error;
    throw new AppError("INVALID_INPUT", `${flag}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

export interface ReadLogs {
  files: ForeignFile[];
  /** Named files that could not be read, one line each. */
  problems: string[];
  /** Files found in folders that no format knows: left alone. */
  skipped: number;
}

/** Reads the candidate logs; a file found in a folder is kept only if a format knows it (or one is forced). */
export async function readLogs(candidates: readonly LogCandidate[], forced: string | undefined): Promise<ReadLogs> {
  const batches: ReadLogs[] = [];
  for await (const batch of readLogBatches(candidates, forced, Number.POSITIVE_INFINITY)) batches.push(batch);
  return {
    files: batches.flatMap((b) => b.files),
    problems: batches.flatMap((b) => b.problems),
    skipped: batches.reduce((n, b) => n + b.skipped, 0),
  };
}

/** Bytes of logs held at once by ingest: the files of one batch are read together (a stream and its session file). */
export const LOG_BATCH_BYTES = 256 * 1024 * 1024;

/**
 * The candidate logs in batches of at most `maxBatchBytes` (a larger file is a batch of its own),
 * in the order discovery found them, so the files of one folder (companions) stay together and a
 * folder of large logs is never held whole.
 */
export async function* readLogBatches(
  candidates: readonly LogCandidate[],
  forced: string | undefined,
  maxBatchBytes = LOG_BATCH_BYTES,
): AsyncGenerator<ReadLogs> {
  let batch: ReadLogs = { files: [], problems: [], skipped: 0 };
  let held = 0;
  for (const candidate of candidates) {
    const read = await readCandidate(candidate, forced);
    if ("problem" in read) batch.problems.push(read.problem);
    else if (read.file === null) batch.skipped += 1;
    else {
      if (held > 0 && held + read.file.data.length > maxBatchBytes) {
        yield batch;
        batch = { files: [], problems: [], skipped: 0 };
        held = 0;
      }
      batch.files.push(read.file);
      held += read.file.data.length;
    }
  }
  yield batch;
}

async function readCandidate(
  candidate: LogCandidate,
  forced: string | undefined,
): Promise<{ file: ForeignFile | null } | { problem: string }> {
  try {
    const file = await readForeignFile(candidate.path);
    return { file: !candidate.named && !forced && !detectFormat(file) ? null : file };
  } catch (error) {
    return candidate.named ? { problem: error instanceof Error ? error.message : String(error) } : { file: null };
  }
}
