/**
 * Inspect AI logs in its default `.eval` format: a zip archive holding `header.json` (the EvalLog
 * without its samples: version, status, eval, plan, results, stats), `samples/<id>_epoch_<n>.json`
 * (one EvalSample each), `summaries.json` and `reductions.json`; a log still being written has
 * `_journal/start.json` instead of the header. Layout from Inspect's writer
 * (inspect_ai/log/_recorders/eval.py); the objects are mapped as the JSON logs' (inspect-json.ts).
 *
 * The archive is read here, synchronously (a reader's `read` is synchronous), from its central
 * directory: every member's declared size is checked against the bounds before it is inflated,
 * and inflation stops at the declared size.
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
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
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
    const member = {
      name: data.subarray(at + 46, at + 46 + nameLength).toString("utf8"),
      method: data.readUInt16LE(at + 10),
      compressedSize: data.readUInt32LE(at + 20),
      size: data.readUInt32LE(at + 24),
      localHeaderOffset: data.readUInt32LE(at + 42),
    };
    if (member.size === 0xffffffff || member.compressedSize === 0xffffffff)
      return fail("ZIP64 members are not supported");
    members.push(member);
    at += 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
  }
  return members;
}

/** A member's bytes: stored or deflated, its declared size within the bounds. */
function memberData(file: ForeignFile, member: ZipMember): Buffer {
  const data = file.data;
  const at = member.localHeaderOffset;
  const fail = (message: string): never => {
    throw new ForeignFormatError(file.name, member.name, message);
  };
  if (member.size > MAX_DOCUMENT_BYTES)
    return fail(`is ${member.size} bytes, over the ${MAX_DOCUMENT_BYTES} a member may have`);
  if (at + 30 > data.length || data.readUInt32LE(at) !== LOCAL_HEADER) return fail("is damaged (no local header)");
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const compressed = data.subarray(start, start + member.compressedSize);
  if (compressed.length !== member.compressedSize) return fail("is truncated");
  if (member.method === 0) return compressed;
  if (member.method !== 8) return fail(`uses compression method ${member.method} (only stored and deflated are read)`);
  try {
    const inflated = zlib.inflateRawSync(compressed, { maxOutputLength: Math.max(1, member.size) });
    if (inflated.length !== member.size)
      return fail(`inflates to ${inflated.length} bytes, not the ${member.size} declared`);
    return inflated;
  } catch (error) {
    return fail(`does not inflate (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** A JSON member, bounded as a JSON document is (its errors name the archive and the member). */
function jsonMember(file: ForeignFile, member: ZipMember): unknown {
  return parseJsonDocument({ name: `${file.name}: ${member.name}`, data: memberData(file, member) });
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
function bySampleOrder(a: EvalSample, b: EvalSample): number {
  const key = (id: string | number) => (typeof id === "number" ? String(id).padStart(20, "0") : id);
  const [x, y] = [key(a.id), key(b.id)];
  return a.epoch - b.epoch || (x < y ? -1 : x > y ? 1 : 0);
}

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
    const header = parseShape(EvalHeaderSchema, jsonMember(file, headerMember), file.name, headerMember.name);
    const sampleMembers = latestSampleMembers(members);
    if (sampleMembers.length === 0)
      throw new ForeignFormatError(
        file.name,
        "samples/",
        `holds no samples (log status ${header.status ?? "unknown"})`,
      );
    const samples = sampleMembers.map((m) => parseSample(jsonMember(file, m), file.name, m.name));
    return inspectRuns(header, samples.sort(bySampleOrder));
  },
};
