/**
 * Test-only helpers for building bundles and hostile archives byte by byte. The writers in
 * write.ts refuse to produce what these tests need to feed the reader (`../evil`, links pointing
 * outside, FIFOs), so the tar headers are written here by hand. Imported by tests, their fixtures and bench scripts only.
 */
import fs from "node:fs/promises";
import { create as createTar } from "tar";
import yazl from "yazl";
import { BundleError } from "./errors";
import type { BundleFiles } from "./read";
import { generatedRunRecord, type GeneratedRecordOptions } from "./generated-records";
import { bundleFilesOf, writeBundleFolder } from "./write";

/** What `promise` rejects with, which must be a `type`; throws if it resolves or rejects otherwise. */
export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a rejection with ${type.name}`);
}

/** The BundleError `run` throws; throws if it returns or throws anything else. */
export function bundleErrorOf(run: () => unknown): BundleError {
  try {
    run();
  } catch (error) {
    if (error instanceof BundleError) return error;
    throw error;
  }
  throw new Error("expected a BundleError");
}

export function generatedBundle(options: GeneratedRecordOptions): BundleFiles {
  return bundleFilesOf(generatedRunRecord(options));
}

export function cloneFiles(files: BundleFiles): BundleFiles {
  return new Map([...files].map(([name, data]) => [name, Buffer.from(data)]));
}

export function withMember(files: BundleFiles, name: string, data: Buffer | string): BundleFiles {
  const copy = cloneFiles(files);
  copy.set(name, typeof data === "string" ? Buffer.from(data) : data);
  return copy;
}

export function without(files: BundleFiles, name: string): BundleFiles {
  const copy = cloneFiles(files);
  copy.delete(name);
  return copy;
}

export function readJson(files: BundleFiles, member: string): unknown {
  const data = files.get(member);
  if (!data) throw new Error(`test setup: no member ${member}`);
  return JSON.parse(data.toString("utf8"));
}

/** A copy of `files` with one JSON member parsed, edited in place by `edit`, and written back. */
export function editJson<T = Record<string, unknown>>(
  files: BundleFiles,
  member: string,
  edit: (value: T) => void,
): BundleFiles {
  const value = readJson(files, member) as T;
  edit(value);
  const copy = cloneFiles(files);
  copy.set(member, Buffer.from(`${JSON.stringify(value, null, 1)}\n`));
  return copy;
}

/** The trajectory's steps as parsed objects, one per line. */
export function trajectoryLines(files: BundleFiles): Record<string, unknown>[] {
  const data = files.get("trajectory.jsonl");
  if (!data) throw new Error("test setup: no trajectory.jsonl");
  return data
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A copy of `files` with trajectory.jsonl rewritten from `edit(steps)` (one JSON object per line). */
export function editTrajectory(files: BundleFiles, edit: (steps: Record<string, unknown>[]) => void): BundleFiles {
  const steps = trajectoryLines(files);
  edit(steps);
  const copy = cloneFiles(files);
  copy.set("trajectory.jsonl", Buffer.from(steps.map((s) => `${JSON.stringify(s)}\n`).join("")));
  return copy;
}

/** Names of the `files/<sha256>` members, sorted. */
export function contentMembers(files: BundleFiles): string[] {
  return [...files.keys()].filter((name) => name.startsWith("files/")).sort();
}

// ---------------------------------------------------------------- tar, by hand

/** ustar type flags: 0 file, 1 hard link, 2 symlink, 3 char device, 5 directory, 6 FIFO. */
export interface TarEntry {
  name: string;
  data?: Buffer;
  type?: "0" | "1" | "2" | "3" | "5" | "6";
  linkname?: string;
  mode?: number;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

/** One 512-byte ustar header with a correct checksum; names are written as given, unchecked. */
export function tarHeader(entry: TarEntry, size: number): Buffer {
  if (Buffer.byteLength(entry.name) > 100) throw new Error(`test setup: tar name over 100 bytes: ${entry.name}`);
  const header = Buffer.alloc(512);
  header.write(entry.name, 0, 100, "utf8");
  header.write(octal(entry.mode ?? (entry.type === "5" ? 0o755 : 0o644), 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(size, 12), 124);
  header.write(octal(1_700_000_000, 12), 136);
  header.write(" ".repeat(8), 148);
  header.write(entry.type ?? "0", 156);
  if (entry.linkname !== undefined) header.write(entry.linkname, 157, 100, "utf8");
  header.write("ustar\0", 257);
  header.write("00", 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return header;
}

/** An uncompressed tar of the entries, in order, with the two zero blocks that end an archive. */
export function tarBuffer(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const data = entry.data ?? Buffer.alloc(0);
    parts.push(tarHeader(entry, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export function tarEntriesOf(files: BundleFiles, prefix = ""): TarEntry[] {
  return [...files].map(([name, data]) => ({ name: `${prefix}${name}`, data }));
}

// ---------------------------------------------------------------- zip

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Unix mode, e.g. 0o120777 for a symlink whose target is `data`. */
  mode?: number;
}

export function zipEntries(entries: readonly ZipEntry[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const entry of entries) {
      zip.addBuffer(entry.data, entry.name, entry.mode === undefined ? {} : { mode: entry.mode });
    }
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("error", reject);
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.end();
  });
}

/**
 * Rewrites a member name in a zip's local and central headers. yazl refuses `..` and absolute
 * names, so a hostile zip is made with a harmless name of the same length, then patched.
 */
export function renameInZip(zip: Buffer, from: string, to: string): Buffer {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error("test setup: names must have equal length");
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  let count = 0;
  for (let at = out.indexOf(needle); at !== -1; at = out.indexOf(needle, at + 1)) {
    out.write(to, at);
    count++;
  }
  if (count < 2) throw new Error(`test setup: "${from}" found ${count} time(s) in the zip, expected 2`);
  return out;
}

/** Writes a .tar.gz holding the bundle at its root (via a folder next to it, removed after). */
export async function writeBundleTarGz(file: string, files: BundleFiles): Promise<void> {
  const staging = `${file}.staging`;
  await fs.rm(staging, { recursive: true, force: true });
  await writeBundleFolder(staging, files);
  await createTar({ gzip: true, file, cwd: staging, portable: true }, [...files.keys()]);
  await fs.rm(staging, { recursive: true, force: true });
}
