/**
 * Inspect AI logs in its default `.eval` format: a zip archive holding `header.json` (the EvalLog
 * without its samples: version, status, eval, plan, results, stats), `samples/<id>_epoch_<n>.json`
 * (one EvalSample each), `summaries.json` and `reductions.json`; a log still being written has
 * `_journal/start.json` instead of the header. Layout from Inspect's writer
 * (inspect_ai/log/_recorders/eval.py); the objects are mapped as the JSON logs' (inspect-json.ts).
 *
 * The archive is read here, synchronously (a reader's `read` is synchronous), from its central
 * directory. A hostile archive is refused, not trusted: members whose bytes overlap (many
 * directory entries naming one 60 MB entry) are refused; a member's declared size is checked
 * against the bounds before it is inflated, inflation stops at the declared size, a stored
 * member's bytes must be as long as it declares, and its CRC-32 must match; the bytes actually
 * inflated are counted against the archive's bound. Samples are parsed one at a time, each
 * sample's JSON dropped once its run is built.
 */
import zlib from "node:zlib";
import { ForeignFormatError, type ForeignFile, type ForeignFormat } from "../types";
import { MAX_DOCUMENT_BYTES, parseJsonDocument, parseShape } from "./json-lines";
import { EvalHeaderSchema, inspectRuns, parseSample, type EvalSample } from "./inspect-json";

/** All members read from one archive together, inflated. */
const MAX_ARCHIVE_INFLATED_BYTES = 1024 * 1024 * 1024;
const MAX_MEMBERS = 100_000;
const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;

interface ZipMember {
  name: string;
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  /** Where the member's (compressed) bytes start, after its local header. */
  dataOffset: number;
}

/** The members of a zip archive, from its central directory (ZIP64 archives are refused). */
function zipMembers(file: ForeignFile): ZipMember[] {
  const data = file.data;
  const fail = (message: string): never => {
    throw new ForeignFormatError(file.name, null, `is not a readable .eval archive: ${message}`);
  };
  // The end record is the last 22 bytes, or earlier by the length of an archive comment (< 64 KB).
  let end = -1;
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 0xffff); at--) {
    if (data.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return fail("no zip central directory");
  const count = data.readUInt16LE(end + 10);
  const directoryOffset = data.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) return fail("ZIP64 archives are not supported");
  if (count > MAX_MEMBERS) return fail(`${count} members, over ${MAX_MEMBERS}`);
  const members: ZipMember[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== CENTRAL_HEADER) return fail(`member ${i + 1} is damaged`);
    const nameLength = data.readUInt16LE(at + 28);
    const name = data.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const localHeaderOffset = data.readUInt32LE(at + 42);
    const compressedSize = data.readUInt32LE(at + 20);
    const size = data.readUInt32LE(at + 24);
    if (size === 0xffffffff || compressedSize === 0xffffffff) return fail("ZIP64 members are not supported");
    if (localHeaderOffset + 30 > data.length || data.readUInt32LE(localHeaderOffset) !== LOCAL_HEADER)
      return fail(`${name} is damaged (no local header)`);
    const dataOffset =
      localHeaderOffset + 30 + data.readUInt16LE(localHeaderOffset + 26) + data.readUInt16LE(localHeaderOffset + 28);
    members.push({
      name,
      method: data.readUInt16LE(at + 10),
      crc32: data.readUInt32LE(at + 16),
      compressedSize,
      size,
      localHeaderOffset,
      dataOffset,
    });
    at += 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
  }
  const overlap = firstOverlap(members);
  if (overlap) return fail(`members ${overlap[0].name} and ${overlap[1].name} share bytes`);
  return members;
}

/**
 * Two members whose local header and bytes overlap (or are the same), or null. A zip writer puts
 * each member's bytes once; an archive naming one entry many times would inflate it many times.
 */
function firstOverlap(members: readonly ZipMember[]): [ZipMember, ZipMember] | null {
  const byOffset = [...members].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  for (let i = 1; i < byOffset.length; i++) {
    const [previous, member] = [byOffset[i - 1]!, byOffset[i]!];
    if (member.localHeaderOffset < previous.dataOffset + previous.compressedSize) return [previous, member];
  }
  return null;
}

/**
 * A member's bytes: stored or deflated, exactly its declared size (within the bounds), its CRC-32
 * matching. `budget` counts the bytes read from the archive so far, against its bound.
 */
function memberData(file: ForeignFile, member: ZipMember, budget: { inflated: number }): Buffer {
  const fail = (message: string): never => {
    throw new ForeignFormatError(file.name, member.name, message);
  };
  if (member.size > MAX_DOCUMENT_BYTES)
    return fail(`is ${member.size} bytes, over the ${MAX_DOCUMENT_BYTES} a member may have`);
  const compressed = file.data.subarray(member.dataOffset, member.dataOffset + member.compressedSize);
  if (compressed.length !== member.compressedSize) return fail("is truncated");
  let bytes: Buffer;
  if (member.method === 0) {
    if (member.compressedSize !== member.size)
      return fail(`is stored as ${member.compressedSize} bytes but declares ${member.size}`);
    bytes = compressed;
  } else if (member.method === 8) bytes = inflated(compressed, member, fail);
  else return fail(`uses compression method ${member.method} (only stored and deflated are read)`);
  budget.inflated += bytes.length;
  if (budget.inflated > MAX_ARCHIVE_INFLATED_BYTES)
    return fail(`takes the archive past ${MAX_ARCHIVE_INFLATED_BYTES} bytes inflated`);
  if (zlib.crc32(bytes) !== member.crc32) return fail("is damaged (its CRC-32 does not match)");
  return bytes;
}

function inflated(compressed: Buffer, member: ZipMember, fail: (message: string) => never): Buffer {
  let bytes: Buffer;
  try {
    bytes = zlib.inflateRawSync(compressed, { maxOutputLength: Math.max(1, member.size) });
  } catch (error) {
    return fail(`does not inflate (${error instanceof Error ? error.message : String(error)})`);
  }
  if (bytes.length !== member.size) return fail(`inflates to ${bytes.length} bytes, not the ${member.size} declared`);
  return bytes;
}

/** A JSON member, bounded as a JSON document is (its errors name the archive and the member). */
function jsonMember(file: ForeignFile, member: ZipMember, budget: { inflated: number }): unknown {
  return parseJsonDocument({ name: `${file.name}: ${member.name}`, data: memberData(file, member, budget) });
}

const SAMPLE_MEMBER = /^samples\/.+_epoch_\d+\.json$/;

/**
 * The sample members, one per name: a sample re-run in the same log (a retried or requeued
 * sample) is written again under its name, and the last copy in the archive is the one read.
 */
function latestSampleMembers(members: readonly ZipMember[]): ZipMember[] {
  const byName = new Map<string, ZipMember>();
  for (const member of members) if (SAMPLE_MEMBER.test(member.name)) byName.set(member.name, member);
  return [...byName.values()];
}

/**
 * The order Inspect gives a log's samples (sort_samples in inspect_ai/log/_log.py): by epoch, then
 * by id, numeric ids as numbers. The archive's members are in the order the samples finished.
 */
function bySampleOrder(a: SampleKey, b: SampleKey): number {
  const key = (id: string | number) => (typeof id === "number" ? String(id).padStart(20, "0") : id);
  const [x, y] = [key(a.id), key(b.id)];
  return a.epoch - b.epoch || (x < y ? -1 : x > y ? 1 : 0);
}

type SampleKey = Pick<EvalSample, "id" | "epoch">;

export const inspectEval: ForeignFormat = {
  id: "inspect-eval",
  label: "Inspect AI log (.eval)",
  readerVersion: 2,
  detect(file) {
    const data = file.data;
    if (data.length < 30 || data.readUInt32LE(0) !== LOCAL_HEADER) return false;
    // The central directory, at the end, names the members.
    const tail = data.subarray(Math.max(0, data.length - 64 * 1024)).toString("latin1");
    return (
      (tail.includes("header.json") || tail.includes("_journal/start.json")) && /samples\/[^\n]*_epoch_/.test(tail)
    );
  },
  read(file) {
    const members = zipMembers(file);
    const declared = members.reduce((sum, m) => sum + m.size, 0);
    if (declared > MAX_ARCHIVE_INFLATED_BYTES)
      throw new ForeignFormatError(
        file.name,
        null,
        `declares ${declared} bytes inflated, over ${MAX_ARCHIVE_INFLATED_BYTES}`,
      );
    const headerMember =
      members.find((m) => m.name === "header.json") ?? members.find((m) => m.name === "_journal/start.json");
    if (!headerMember) throw new ForeignFormatError(file.name, null, "has neither header.json nor _journal/start.json");
    const budget = { inflated: 0 };
    const header = parseShape(EvalHeaderSchema, jsonMember(file, headerMember, budget), file.name, headerMember.name);
    const sampleMembers = latestSampleMembers(members);
    if (sampleMembers.length === 0)
      throw new ForeignFormatError(
        file.name,
        "samples/",
        `holds no samples (log status ${header.status ?? "unknown"})`,
      );
    // One sample's JSON at a time: only its run (and its order) is kept.
    const runs = sampleMembers.map((m) => {
      const sample = parseSample(jsonMember(file, m, budget), file.name, m.name);
      return { id: sample.id, epoch: sample.epoch, run: inspectRuns(header, [sample])[0]! };
    });
    return runs.sort(bySampleOrder).map(({ run }, index) => ({ ...run, index }));
  },
};
