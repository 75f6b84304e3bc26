import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { zipBuffer } from "@/lib/bundle/write";
import type { ForeignFile } from "../types";
import { inspectEval } from "./inspect-eval";
import { inspectJson } from "./inspect-json";
import { fixtureFile, readError, readRuns, textFile } from "./reader.fixture";

interface Log {
  samples: { id: string; epoch: number }[];
}

/** The .eval zip Inspect would write for the JSON fixture: header.json, samples/<id>_epoch_<n>.json, summaries, reductions. */
async function evalArchive(
  name: string,
  change: (log: Log) => void = () => {},
  headerMember = "header.json",
): Promise<ForeignFile> {
  const log = JSON.parse(fixtureFile("inspect-json/swe_bench_mini.json").data.toString("utf8")) as Log;
  change(log);
  const { samples, ...header } = log;
  const members = new Map<string, Buffer>([[headerMember, Buffer.from(JSON.stringify(header))]]);
  for (const sample of samples)
    members.set(`samples/${sample.id}_epoch_${sample.epoch}.json`, Buffer.from(JSON.stringify(sample)));
  members.set("summaries.json", Buffer.from(JSON.stringify(samples.map((s) => ({ id: s.id, epoch: s.epoch })))));
  members.set("reductions.json", Buffer.from("[]"));
  return { name, data: await zipBuffer(members) };
}

interface HandMember {
  name: string;
  data: Buffer;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  /** The inflated size the central directory declares (default: the real one). */
  declaredSize?: number;
  /** The CRC-32 the central directory declares (default: the real one). */
  crc?: number;
  /** Central-directory entries naming this member's bytes under other names (a zip bomb's trick). */
  alsoAs?: string[];
}

/** A zip written by hand, one local entry per member, so its directory can lie. */
function handZip(members: readonly HandMember[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const bytes = member.method === 8 ? zlib.deflateRawSync(member.data) : member.data;
    const crc = member.crc ?? zlib.crc32(member.data);
    const name = Buffer.from(member.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(member.method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(bytes.length, 18);
    local.writeUInt32LE(member.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    for (const alias of [member.name, ...(member.alsoAs ?? [])]) {
      const aliasName = Buffer.from(alias);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(member.method, 10);
      central.writeUInt32LE(crc, 16);
      central.writeUInt32LE(bytes.length, 20);
      central.writeUInt32LE(member.declaredSize ?? member.data.length, 24);
      central.writeUInt16LE(aliasName.length, 28);
      central.writeUInt32LE(offset, 42);
      centrals.push(central, aliasName);
    }
    locals.push(local, name, bytes);
    offset += local.length + name.length + bytes.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = members.reduce((sum, m) => sum + 1 + (m.alsoAs?.length ?? 0), 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The fixture log's header and first sample, as hand-zip members (the sample's entry changed by `sample`). */
function handLog(sample: Partial<HandMember> = {}): HandMember[] {
  const { samples, ...header } = JSON.parse(
    fixtureFile("inspect-json/swe_bench_mini.json").data.toString("utf8"),
  ) as Log;
  const first = samples[0]!;
  return [
    { name: "header.json", data: Buffer.from(JSON.stringify(header)), method: 0 },
    {
      name: `samples/${first.id}_epoch_${first.epoch}.json`,
      data: Buffer.from(JSON.stringify(first)),
      method: 0,
      ...sample,
    },
  ];
}

describe("Inspect AI .eval log", () => {
  it("reads the samples of the archive as the JSON log's runs", async () => {
    const file = await evalArchive("run.eval");
    const runs = readRuns(inspectEval, file);
    const fromJson = readRuns(inspectJson, fixtureFile("inspect-json/swe_bench_mini.json"));
    // In Inspect's order (epoch, then id), as Inspect reads an archive; a JSON log keeps its own.
    expect(runs).toEqual([fromJson[1], fromJson[0]].map((run, index) => ({ ...run, index })));
    expect(runs.map((r) => [r.task.instanceId, r.steps.length])).toEqual([
      ["astropy__astropy-12907", 9],
      ["django__django-11163", 14],
    ]);
  });

  it("reads a log still being written, whose header is its journal's start.json", async () => {
    const file = await evalArchive("running.eval", () => {}, "_journal/start.json");
    expect(inspectEval.detect(file)).toBe(true);
    expect(readRuns(inspectEval, file).map((r) => r.task.instanceId)).toEqual([
      "astropy__astropy-12907",
      "django__django-11163",
    ]);
  });

  it("reads a sample written twice under one name (a re-run) once, from its last copy", async () => {
    const file = await evalArchive("rerun.eval", (log) => {
      log.samples[1]!.id = "django__django-11164"; // as long as the first sample's id
    });
    // Rename the second member to the first's name, in its local and central headers.
    const [first, second] = ["django__django-11163_epoch_1", "django__django-11164_epoch_1"].map((n) => Buffer.from(n));
    for (let at = file.data.indexOf(second!); at >= 0; at = file.data.indexOf(second!, at)) first!.copy(file.data, at);
    const runs = readRuns(inspectEval, file);
    expect(runs.map((r) => [r.task.instanceId, r.steps.length])).toEqual([["django__django-11164", 9]]);
  });

  it("detects .eval archives, not other zips or JSON", async () => {
    expect(inspectEval.detect(await evalArchive("run.eval"))).toBe(true);
    const other = { name: "bundle.zip", data: await zipBuffer(new Map([["manifest.json", Buffer.from("{}")]])) };
    expect(inspectEval.detect(other)).toBe(false);
    expect(inspectEval.detect(fixtureFile("inspect-json/swe_bench_mini.json"))).toBe(false);
  });

  it("names the archive and member of bad input", async () => {
    const wrongType = await evalArchive("w.eval", (log) => {
      (log.samples[0] as unknown as Record<string, unknown>).messages = "none";
    });
    expect(readError(inspectEval, wrongType)).toMatch(
      /w\.eval \(samples\/django__django-11163_epoch_1\.json, messages\)/,
    );
    const good = await evalArchive("t.eval");
    expect(readError(inspectEval, { name: "t.eval", data: good.data.subarray(0, good.data.length - 40) })).toMatch(
      /t\.eval: is not a readable \.eval archive/,
    );
    expect(readError(inspectEval, textFile("e.eval", ""))).toMatch(/e\.eval: is not a readable \.eval archive/);
    const noSamples = await evalArchive("n.eval", (log) => {
      log.samples = [];
    });
    expect(readError(inspectEval, noSamples)).toMatch(/n\.eval \(samples\/\): holds no samples/);
  });

  it("refuses a member declaring more than the bound before inflating it", async () => {
    const file = await evalArchive("big.eval");
    const data = Buffer.from(file.data);
    // Declare 200 MB for the first member in the central directory.
    const central = data.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    data.writeUInt32LE(200 * 1024 * 1024, central + 24);
    expect(readError(inspectEval, { name: "big.eval", data })).toMatch(
      /big\.eval \(header\.json\): is \d+ bytes, over/,
    );
  });

  it("reads a hand-written archive, stored and deflated alike", () => {
    for (const method of [0, 8] as const) {
      const file = { name: "hand.eval", data: handZip(handLog({ method })) };
      expect(readRuns(inspectEval, file).map((r) => r.task.instanceId)).toEqual(["django__django-11163"]);
    }
  });

  it("refuses a stored member whose bytes are not the size it declares (declared 0 passed the bound)", () => {
    const file = { name: "stored.eval", data: handZip(handLog({ declaredSize: 0 })) };
    expect(readError(inspectEval, file)).toMatch(
      /stored\.eval \(samples\/django__django-11163_epoch_1\.json\): is stored as \d+ bytes but declares 0/,
    );
  });

  it("refuses directory entries that name one member's bytes many times", () => {
    for (const method of [0, 8] as const) {
      const copies = Array.from({ length: 8 }, (_, i) => `samples/copy${i}_epoch_1.json`);
      const file = { name: "bomb.eval", data: handZip(handLog({ method, alsoAs: copies })) };
      expect(readError(inspectEval, file)).toMatch(
        /bomb\.eval: is not a readable \.eval archive: members .* share bytes/,
      );
    }
  });

  it("refuses a member whose CRC-32 does not match its bytes", () => {
    const file = { name: "crc.eval", data: handZip(handLog({ method: 8, crc: 12345 })) };
    expect(readError(inspectEval, file)).toMatch(/crc\.eval \(samples\/.*\): is damaged \(its CRC-32 does not match\)/);
  });
});
