/**
 * Hostile archives, built cheaply at any size, for the tests of the reading limits and for
 * `npm run bench:hostile-import`: zeros after a valid archive's end, a member header declaring a
 * gigabyte, a zip of zero-filled members, JSON nested thousands of levels deep, and JSON built to
 * fill an import worker's heap, and native/ members that inflate just under the ratio limit.
 */
import zlib from "node:zlib";
import type { BundleFiles } from "./read";
import { tarBuffer, tarEntriesOf, tarHeader, zipEntries } from "./test-support";

const MiB = 1024 * 1024;
const ZERO_MIB = Buffer.alloc(MiB);

/**
 * `tar` gzipped, followed inside the same gzip stream by `zeros` zero bytes (what
 * `cat run.tar /dev/zero | head -c ... | gzip` makes). Zeros gzip 1,000x: 256 MiB are 260 KB.
 */
export async function gzipWithTrailingZeros(tar: Buffer, zeros: number): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    gzip.on("end", resolve);
    gzip.on("error", reject);
  });
  const write = async (data: Buffer) => {
    if (!gzip.write(data)) await new Promise((resolve) => gzip.once("drain", resolve));
  };
  await write(tar);
  for (let left = zeros; left > 0; left -= MiB) await write(left >= MiB ? ZERO_MIB : ZERO_MIB.subarray(0, left));
  gzip.end();
  await done;
  return Buffer.concat(chunks);
}

/** A .tar.gz of `files` with `zeros` zero bytes after the archive's end blocks. */
export function tarGzWithTrailingZeros(files: BundleFiles, zeros: number): Promise<Buffer> {
  return gzipWithTrailingZeros(tarBuffer(tarEntriesOf(files)), zeros);
}

/**
 * A .tar.gz of `files` followed by `mib` MiB of zeros as further gzip members (RFC 1952 allows a
 * file of several; gunzip reads on): 4 GiB in a 4.3 MB file, built in a second, not in twenty.
 */
export function tarGzWithZeroMembers(files: BundleFiles, mib: number): Buffer {
  const zeroMember = zlib.gzipSync(ZERO_MIB, { level: 9 });
  const parts = [zlib.gzipSync(tarBuffer(tarEntriesOf(files)))];
  for (let i = 0; i < mib; i++) parts.push(zeroMember);
  return Buffer.concat(parts);
}

/**
 * A .tar.gz whose one member's header declares `declared` bytes; `present` zero bytes of it
 * follow (a reader that inflates before checking the header pays for all of them).
 */
export function tarGzDeclaring(name: string, declared: number, present: number): Promise<Buffer> {
  return gzipWithTrailingZeros(tarHeader({ name }, declared), present);
}

/** A zip of `count` members of `each` zero bytes: a few KB per member, each declaring its size. */
export function zipOfZeros(count: number, each: number): Promise<Buffer> {
  const zeros = Buffer.alloc(each);
  return zipEntries(Array.from({ length: count }, (_, i) => ({ name: `native/zeros-${i}.bin`, data: zeros })));
}

/** `files` with a tool call's arguments in trajectory.jsonl nested `depth` arrays deep. */
export function withDeepArguments(files: BundleFiles, depth: number): { files: BundleFiles; line: number } {
  const lines = (files.get("trajectory.jsonl") ?? Buffer.alloc(0)).toString("utf8").split("\n");
  const index = lines.findIndex((line) => line.includes('"kind":"tool_call"'));
  const original = lines[index];
  if (original === undefined) throw new Error("hostile archive: no tool call in trajectory.jsonl");
  const step = JSON.parse(original) as Record<string, unknown>;
  delete step.arguments;
  lines[index] = JSON.stringify(step).replace(/^\{/, `{"arguments":${"[".repeat(depth)}${"]".repeat(depth)},`);
  const copy: BundleFiles = new Map(files);
  copy.set("trajectory.jsonl", Buffer.from(lines.join("\n")));
  return { files: copy, line: index + 1 };
}

/**
 * `files` built to take an import worker past its heap cap with one large allocation to follow:
 * manifest.json's options hold `fillBytes` of `{},` (25 bytes of heap per byte once parsed), and
 * trajectory.jsonl ends in `newlines` newlines (splitting it once made an array of 8 bytes each).
 */
export function withHeapFilling(files: BundleFiles, fillBytes: number, newlines: number): BundleFiles {
  const manifest = (files.get("manifest.json") ?? Buffer.alloc(0)).toString("utf8");
  const filled = manifest.replace(
    /"agent": ?\{/,
    (agent) => `${agent}"options":{"fill":[${"{},".repeat(Math.floor(fillBytes / 3))}{}]},`,
  );
  const trajectory = files.get("trajectory.jsonl") ?? Buffer.alloc(0);
  const copy: BundleFiles = new Map(files);
  copy.set("manifest.json", Buffer.from(filled));
  copy.set("trajectory.jsonl", Buffer.concat([trajectory, Buffer.alloc(newlines, 0x0a)]));
  return copy;
}

/**
 * `files` plus `count` native/ members of `each` bytes that gzip about `ratio` times (each 64 KiB
 * block: 64 KiB / ratio random bytes, then zeros): under the ratio limit, so the archive is
 * accepted and every byte of it is held while it is imported. The most a small upload can make
 * the server hold.
 */
export function withNearRatioMembers(files: BundleFiles, count: number, each: number, ratio: number): BundleFiles {
  const member = Buffer.alloc(each);
  const random = Math.ceil((64 * 1024) / ratio);
  let seed = 12345;
  for (let block = 0; block < each; block += 64 * 1024) {
    for (let i = 0; i < random && block + i < each; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      member[block + i] = seed >>> 24;
    }
  }
  const out = new Map(files);
  for (let i = 0; i < count; i++) out.set(`native/near-ratio-${i}.bin`, member);
  return out;
}
