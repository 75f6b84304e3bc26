/**
 * Reading a bundle's members into memory from a folder, a .tar.gz/.tgz/.tar or a .zip, with
 * limits, and refusing anything that could escape the bundle (traversal names, absolute paths,
 * links pointing outside, special files).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { Parser, type ReadEntry } from "tar";
import yauzl from "yauzl";
import { BundleError } from "./errors";
import { explainUnsafeRelativePath } from "./paths";

/** Bundle-relative POSIX path -> bytes. */
export type BundleFiles = Map<string, Buffer>;

export interface ReadLimits {
  /** Largest single member, uncompressed. */
  maxMemberBytes: number;
  /** Largest bundle: all members together, uncompressed (and the archive file itself). */
  maxBundleBytes: number;
  maxMembers: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxMemberBytes: 64 * 1024 * 1024,
  maxBundleBytes: 512 * 1024 * 1024,
  maxMembers: 20_000,
};

export type ArchiveKind = "tar" | "zip";

export function archiveKindOf(fileName: string): ArchiveKind | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz") || lower.endsWith(".tar")) return "tar";
  if (lower.endsWith(".zip")) return "zip";
  return null;
}

/** Accumulates members, enforcing the limits and the path rules as they arrive. */
class MemberCollector {
  readonly files: BundleFiles = new Map();
  private readonly links = new Map<string, string>();
  private total = 0;

  constructor(
    private readonly label: string,
    private readonly limits: ReadLimits,
  ) {}

  checkName(name: string): string {
    // `tar -C run -czf run.tgz .` writes `./manifest.json`: a leading `./` is harmless, drop it.
    const clean = name.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
    const problem = explainUnsafeRelativePath(clean);
    if (problem) throw new BundleError({ bundle: this.label, member: name }, `member name ${problem}`);
    return clean;
  }

  checkSize(name: string, size: number): void {
    if (size > this.limits.maxMemberBytes) {
      throw new BundleError(
        { bundle: this.label, member: name },
        `member is ${size} bytes, over the limit of ${this.limits.maxMemberBytes} (STUDIO_BUNDLE_MAX_MEMBER_BYTES)`,
        "TOO_LARGE",
      );
    }
    this.total += size;
    if (this.total > this.limits.maxBundleBytes) {
      throw new BundleError(
        { bundle: this.label, member: name },
        `bundle exceeds ${this.limits.maxBundleBytes} bytes in all (STUDIO_BUNDLE_MAX_BYTES)`,
        "TOO_LARGE",
      );
    }
  }

  add(name: string, data: Buffer): void {
    const clean = this.checkName(name);
    if (this.files.has(clean) || this.links.has(clean)) {
      throw new BundleError({ bundle: this.label, member: clean }, "member appears twice");
    }
    if (this.files.size + this.links.size >= this.limits.maxMembers) {
      throw new BundleError({ bundle: this.label }, `more than ${this.limits.maxMembers} members`, "TOO_LARGE");
    }
    this.files.set(clean, data);
  }

  /** A link inside an archive; `fromRoot` for hard links, whose target is archive-relative. */
  addLink(name: string, target: string, fromRoot: boolean): void {
    const clean = this.checkName(name);
    if (this.files.has(clean) || this.links.has(clean)) {
      throw new BundleError({ bundle: this.label, member: clean }, "member appears twice");
    }
    if (target.startsWith("/")) {
      throw new BundleError({ bundle: this.label, member: clean }, `link points to an absolute path "${target}"`);
    }
    if (this.files.size + this.links.size >= this.limits.maxMembers) {
      throw new BundleError({ bundle: this.label }, `more than ${this.limits.maxMembers} members`, "TOO_LARGE");
    }
    const resolved = path.posix.normalize(
      fromRoot ? target.replace(/^(\.\/)+/, "") : path.posix.join(path.posix.dirname(clean), target),
    );
    if (resolved === ".." || resolved.startsWith("../") || resolved === ".") {
      throw new BundleError({ bundle: this.label, member: clean }, `link escapes the bundle (-> "${target}")`);
    }
    this.links.set(clean, resolved);
  }

  finish(): BundleFiles {
    for (const [name, target] of this.links) {
      const data = this.files.get(target);
      if (!data) {
        throw new BundleError(
          { bundle: this.label, member: name },
          `link points to "${target}", which is not a file in the bundle`,
        );
      }
      // A link's bytes count against the limits like a copy would: it becomes a member of its own.
      this.checkSize(name, data.length);
      this.files.set(name, data);
    }
    return stripSingleTopFolder(this.files);
  }
}

/** An archive made with `tar czf x.tgz run-1/` holds `run-1/manifest.json`: accept that layout. */
function stripSingleTopFolder(files: BundleFiles): BundleFiles {
  if (files.has("manifest.json")) return files;
  const tops = new Set([...files.keys()].map((name) => name.split("/")[0]));
  const [top] = tops;
  if (tops.size !== 1 || top === undefined || !files.has(`${top}/manifest.json`)) return files;
  const stripped: BundleFiles = new Map();
  for (const [name, data] of files) stripped.set(name.slice(top.length + 1), data);
  return stripped;
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

export async function readArchiveFile(file: string, label: string, limits: ReadLimits): Promise<BundleFiles> {
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
  return readArchiveBuffer(await fs.readFile(file), kind, label, limits);
}

export function readArchiveBuffer(
  data: Buffer,
  kind: ArchiveKind,
  label: string,
  limits: ReadLimits,
): Promise<BundleFiles> {
  return kind === "tar" ? readTar(data, label, limits) : readZip(data, label, limits);
}

function readTar(data: Buffer, label: string, limits: ReadLimits): Promise<BundleFiles> {
  return new Promise((resolve, reject) => {
    const collector = new MemberCollector(label, limits);
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      reject(
        error instanceof BundleError
          ? error
          : new BundleError(
              { bundle: label },
              `unreadable tar archive: ${error instanceof Error ? error.message : String(error)}`,
            ),
      );
    };
    const parser = new Parser({
      strict: true,
      onReadEntry(entry: ReadEntry) {
        if (failed) return entry.resume();
        try {
          const name = entry.path;
          if (entry.type === "Directory") {
            if (name.replace(/^(\.\/)+/, "") === "." || name === "./") return entry.resume();
            collector.checkName(name);
            return entry.resume();
          }
          if (entry.type === "SymbolicLink" || entry.type === "Link") {
            collector.addLink(name, entry.linkpath ?? "", entry.type === "Link");
            return entry.resume();
          }
          if (entry.type !== "File" && entry.type !== "OldFile" && entry.type !== "ContiguousFile") {
            throw new BundleError({ bundle: label, member: name }, `unsupported archive entry type ${entry.type}`);
          }
          collector.checkName(name);
          collector.checkSize(name, entry.size ?? 0);
          const chunks: Buffer[] = [];
          entry.on("data", (chunk: Buffer) => chunks.push(chunk));
          entry.on("end", () => {
            try {
              if (!failed) collector.add(name, Buffer.concat(chunks));
            } catch (error) {
              fail(error);
            }
          });
        } catch (error) {
          entry.resume();
          fail(error);
        }
      },
    });
    parser.on("error", fail);
    parser.on("end", () => {
      if (failed) return;
      try {
        resolve(collector.finish());
      } catch (error) {
        fail(error);
      }
    });
    parser.end(data);
  });
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function readZip(data: Buffer, label: string, limits: ReadLimits): Promise<BundleFiles> {
  return new Promise((resolve, reject) => {
    const collector = new MemberCollector(label, limits);
    const fail = (error: unknown) =>
      reject(
        error instanceof BundleError
          ? error
          : new BundleError(
              { bundle: label },
              `unreadable zip archive: ${error instanceof Error ? error.message : String(error)}`,
            ),
      );
    yauzl.fromBuffer(
      data,
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true },
      (openError, zip) => {
        if (openError || !zip) return fail(openError);
        zip.on("error", fail);
        zip.on("end", () => {
          try {
            resolve(collector.finish());
          } catch (error) {
            fail(error);
          }
        });
        zip.on("entry", (entry: yauzl.Entry) => {
          try {
            const name = entry.fileName;
            if (name.endsWith("/")) {
              collector.checkName(name);
              return zip.readEntry();
            }
            collector.checkName(name);
            collector.checkSize(name, entry.uncompressedSize);
            zip.openReadStream(entry, (streamError, stream) => {
              if (streamError || !stream) return fail(streamError);
              const chunks: Buffer[] = [];
              stream.on("data", (chunk: Buffer) => chunks.push(chunk));
              stream.on("error", fail);
              stream.on("end", () => {
                try {
                  const content = Buffer.concat(chunks);
                  const isLink = ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
                  if (isLink) collector.addLink(name, content.toString("utf8"), false);
                  else collector.add(name, content);
                  zip.readEntry();
                } catch (error) {
                  fail(error);
                }
              });
            });
          } catch (error) {
            fail(error);
          }
        });
        zip.readEntry();
      },
    );
  });
}
