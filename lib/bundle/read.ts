/**
 * Reading a bundle's members into memory from a folder, a .tar.gz/.tgz/.tar or a .zip, with
 * limits, and refusing anything that could escape the bundle (traversal names, absolute paths,
 * links pointing outside, special files). Archives are inflated as streams against a byte budget
 * (budget.ts, read-tar.ts, read-zip.ts).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { DEFAULT_MAX_RATIO, type ReadStats } from "./budget";
export type { ReadStats } from "./budget";
import { BundleError } from "./errors";
import { DEFAULT_MAX_JSON_BYTES } from "./json-budget";
import { MemberCollector } from "./members";
import { readTarBuffer, readTarStream, STREAM_CHUNK_BYTES } from "./read-tar";
import { readZipBuffer } from "./read-zip";

/** Bundle-relative POSIX path -> bytes. */
export type BundleFiles = Map<string, Buffer>;

export interface ReadLimits {
  /** Largest single member, uncompressed. */
  maxMemberBytes: number;
  /** Largest bundle: all members together, uncompressed (and the archive file itself). */
  maxBundleBytes: number;
  maxMembers: number;
  /** Most inflated bytes per archive byte (default DEFAULT_MAX_RATIO); see budget.ts. */
  maxRatio?: number;
  /** Most bytes of all JSON members together (default DEFAULT_MAX_JSON_BYTES); see json-budget.ts. */
  maxJsonBytes?: number;
  /** What set maxJsonBytes, for the error (default STUDIO_BUNDLE_MAX_JSON_BYTES). */
  maxJsonBytesSetBy?: string;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxMemberBytes: 64 * 1024 * 1024,
  maxBundleBytes: 512 * 1024 * 1024,
  maxMembers: 20_000,
  maxRatio: DEFAULT_MAX_RATIO,
  maxJsonBytes: DEFAULT_MAX_JSON_BYTES,
};

export type ArchiveKind = "tar" | "zip";

export function archiveKindOf(fileName: string): ArchiveKind | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz") || lower.endsWith(".tar")) return "tar";
  if (lower.endsWith(".zip")) return "zip";
  return null;
}

export async function readBundleFolder(root: string, label: string, limits: ReadLimits): Promise<BundleFiles> {
  const realRoot = await fs.realpath(root);
  const collector = new MemberCollector(label, limits);

  async function walk(dir: string, prefix: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      const full = path.join(dir, entry.name);
      collector.checkName(rel);
      let target = full;
      if (entry.isSymbolicLink()) {
        target = await fs.realpath(full).catch(() => {
          throw new BundleError({ bundle: label, member: rel }, "link points to nothing");
        });
        if (!target.startsWith(realRoot + path.sep)) {
          throw new BundleError({ bundle: label, member: rel }, "link escapes the bundle");
        }
      }
      const stat = await fs.stat(target);
      if (stat.isDirectory()) {
        if (entry.isSymbolicLink())
          throw new BundleError({ bundle: label, member: rel }, "links to folders are not allowed");
        await walk(full, rel);
      } else if (stat.isFile()) {
        collector.checkSize(rel, stat.size);
        collector.add(rel, await fs.readFile(target));
      } else {
        throw new BundleError({ bundle: label, member: rel }, "not a regular file (device, socket or pipe)");
      }
    }
  }

  await walk(realRoot, "");
  return collector.finish();
}

export async function readArchiveFile(
  file: string,
  label: string,
  limits: ReadLimits,
  stats?: ReadStats,
): Promise<BundleFiles> {
  const kind = archiveKindOf(file);
  if (!kind) throw new BundleError({ bundle: label }, "not a bundle archive: expected .tar.gz, .tgz, .tar or .zip");
  const stat = await fs.stat(file);
  if (stat.size > limits.maxBundleBytes) {
    throw new BundleError(
      { bundle: label },
      `archive is ${stat.size} bytes, over the limit of ${limits.maxBundleBytes}`,
      "TOO_LARGE",
    );
  }
  if (kind === "zip") return readZipBuffer(await fs.readFile(file), label, limits, stats);
  // A tar is streamed from the file, so reading stops at its end blocks without reading the rest.
  const handle = await fs.open(file);
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, head.length, 0);
    const source = handle.createReadStream({ start: 0, highWaterMark: STREAM_CHUNK_BYTES, autoClose: false });
    return await readTarStream(source, head, stat.size, label, limits, stats);
  } finally {
    await handle.close();
  }
}

export function readArchiveBuffer(
  data: Buffer,
  kind: ArchiveKind,
  label: string,
  limits: ReadLimits,
  stats?: ReadStats,
): Promise<BundleFiles> {
  return kind === "tar" ? readTarBuffer(data, label, limits, stats) : readZipBuffer(data, label, limits, stats);
}
