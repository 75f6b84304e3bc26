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
});
