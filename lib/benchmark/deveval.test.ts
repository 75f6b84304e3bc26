import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { contextOf, metadataResolver, parseDevEvalJsonl, splitUsable } from "./deveval";

describeWithTestData("DevEval metadata", "deveval/data.jsonl", (REAL_DATA) => {
  it("drops the two samples inside module-level conditionals and splits 1,253 / 570", () => {
    const samples = parseDevEvalJsonl(fs.readFileSync(REAL_DATA, "utf8"), REAL_DATA);
    expect(samples).toHaveLength(1825);
    const { usable, dropped } = splitUsable(samples);
    expect(usable).toHaveLength(1823);
    expect(dropped.map((d) => d.sample.namespace).sort()).toEqual([
      "boltons.funcutils.FunctionBuilder.get_invocation_str",
      "boltons.funcutils.FunctionBuilder.get_sig_str",
    ]);
    expect(dropped[0]?.reason).toMatch(/module-level conditional/);
    const resolver = metadataResolver(usable);
    const repository = usable.filter((s) => contextOf(s, resolver(s)) === "repository");
    expect(repository).toHaveLength(570);
    expect(usable.length - repository.length).toBe(1253);
  });
});

describe("DevEval metadata errors", () => {
  it("names the line and field of a bad sample", () => {
    const good = fs.readFileSync("data/sample-corpus/data.jsonl", "utf8").split("\n")[0]!;
    const bad = JSON.stringify({ ...JSON.parse(good), indent: "four" });
    expect(() => parseDevEvalJsonl(`${good}\n${bad}\n`, "x.jsonl")).toThrow(/^x\.jsonl line 2, field "indent": /);
    expect(() => parseDevEvalJsonl(`${good}\n{oops\n`, "x.jsonl")).toThrow(/^x\.jsonl line 2: invalid JSON/);
    expect(() => parseDevEvalJsonl(`${good}\n${good}\n`, "x.jsonl")).toThrow(/repeats line 1/);
    expect(() => parseDevEvalJsonl("\n", "x.jsonl")).toThrow(/no samples/);
  });
});
