/**
 * Reading a .tar or .tar.gz as a stream against a byte budget. node-tar parses the blocks, but it
 * is fed here, chunk by chunk, by our own gunzip, and feeding stops at the archive's end (two
 * zero blocks): node-tar keeps concatenating whatever follows into one buffer, so 32 MiB of
 * zeros after the end took 36 s and 256 MiB pinned a core for over ten minutes.
 */
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { Parser, type ReadEntry } from "tar";
import { InflateBudget, type ReadStats } from "./budget";
import { BundleError } from "./errors";
import { MemberCollector } from "./members";
import type { BundleFiles, ReadLimits } from "./read";

/** Chunks fed to gunzip and node-tar: large enough to amortise calls, small enough to stop early. */
export const STREAM_CHUNK_BYTES = 64 * 1024;

export function isGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b;
}

function isZstd(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === 0xfd2fb528;
}

/** Slices a buffer into stream chunks without copying. */
export function* chunksOf(data: Buffer): Generator<Buffer> {
  for (let at = 0; at < data.length; at += STREAM_CHUNK_BYTES) yield data.subarray(at, at + STREAM_CHUNK_BYTES);
}

/**
 * `source` yields the archive's bytes; `head` is its first bytes (to tell gzip from plain tar)
 * and `archiveBytes` its size, for the ratio limit.
 */
export async function readTarStream(
  source: Readable,
  head: Uint8Array,
  archiveBytes: number,
  label: string,
  limits: ReadLimits,
  stats?: ReadStats,
): Promise<BundleFiles> {
  const budget = new InflateBudget(label, limits, archiveBytes, stats);
  const collector = new MemberCollector(label, limits, budget);
  const parse = tarParser(label, collector);
  const gunzip = isGzip(head) ? createGunzip({ chunkSize: STREAM_CHUNK_BYTES }) : null;
  const blocks: Readable = gunzip ? source.pipe(gunzip) : source;
  source.on("error", (error) => gunzip?.destroy(error));
  let first = true;
  try {
    for await (const chunk of blocks as AsyncIterable<Buffer>) {
      budget.add(chunk.length);
      // node-tar would gunzip (or zstd-decompress) a second layer itself, outside the budget.
      if (first && (isGzip(chunk) || isZstd(chunk))) {
        throw new BundleError({ bundle: label }, "unreadable tar archive: compressed twice");
      }
      first = false;
      parse.parser.write(chunk);
      if (parse.failure() || parse.sawEnd()) break;
    }
  } catch (error) {
    throw asTarError(error, label);
  } finally {
    source.destroy();
    gunzip?.destroy();
  }
  return parse.finish();
}

export function readTarBuffer(data: Buffer, label: string, limits: ReadLimits, stats?: ReadStats) {
  return readTarStream(Readable.from(chunksOf(data)), data, data.length, label, limits, stats);
}

function asTarError(error: unknown, label: string): BundleError {
  if (error instanceof BundleError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new BundleError({ bundle: label }, `unreadable tar archive: ${message}`);
}

/** node-tar's parser wired to the collector; a thrown BundleError is kept, not lost in a callback. */
function tarParser(label: string, collector: MemberCollector) {
  let failure: unknown = null;
  let end = false;
  const fail = (error: unknown) => {
    failure ??= error;
  };
  const parser = new Parser({
    strict: true,
    zstd: false,
    onReadEntry(entry: ReadEntry) {
      if (failure) return entry.resume();
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
            if (!failure) collector.add(name, Buffer.concat(chunks));
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
  parser.on("eof", () => {
    end = true;
  });
  // Settles on "end", or on the error that a truncated archive raises while ending instead.
  const ended = new Promise<void>((resolve) => {
    parser.on("end", () => resolve());
    parser.on("error", () => resolve());
  });

  return {
    parser,
    failure: () => failure,
    sawEnd: () => end,
    /** Ends the parser (nothing more is fed after the end blocks) and returns the members. */
    async finish(): Promise<BundleFiles> {
      if (!failure) {
        parser.end();
        await ended;
      }
      if (failure) throw asTarError(failure, label);
      return collector.finish();
    },
  };
}
