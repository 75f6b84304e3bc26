import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "../patch";
import { fixtureFile, readError, readRuns, textFile } from "./reader.fixture";
import { firstRecordKeys, sweBenchPredictions } from "./swe-bench-predictions";

// Fixtures: preds.jsonl and preds-list.json hold real patches (mini-swe-agent's submission on
// django__django-16255, OpenHands' git_patch on ponylang__ponyc-4595; see SOURCES of the test data)
// in the records SWE-bench's harness reads, plus one empty prediction.
describe("swe-bench-predictions reader", () => {
  it("detects JSON Lines and JSON list predictions, not a map by instance id nor other JSON Lines", () => {
    expect(sweBenchPredictions.detect(fixtureFile("swe-bench-predictions/preds.jsonl"))).toBe(true);
    expect(sweBenchPredictions.detect(fixtureFile("swe-bench-predictions/preds-list.json"))).toBe(true);
    expect(
      sweBenchPredictions.detect(textFile("p.json", '{"a__b-1": {"instance_id": "a__b-1", "model_patch": ""}}')),
    ).toBe(false);
    expect(
      sweBenchPredictions.detect(
        textFile("o.jsonl", '{"instance_id": "a__b-1", "test_result": {"model_patch": ""}}\n'),
      ),
    ).toBe(false);
    expect(sweBenchPredictions.detect(textFile("x.diff", "diff --git a/x b/x\n"))).toBe(false);
  });

  it("reads the first record's keys from a cut-off head, skipping nested objects and string contents", () => {
    expect([
      ...firstRecordKeys(
        '[{"instance_id": "x", "meta": {"k": 1}, "note": "a \\" : b", "model_patch": "diff --git a/very long',
      ),
    ]).toEqual(["instance_id", "meta", "note", "model_patch"]);
  });

  it("reads one run per record: instance, model, patch; an empty patch is none", () => {
    const runs = readRuns(sweBenchPredictions, fixtureFile("swe-bench-predictions/preds.jsonl"));
    expect(
      runs.map((r) => [r.index, r.task.instanceId, r.agent.model, r.agent.framework, r.hasTrajectory, r.steps.length]),
    ).toEqual([
      [0, "django__django-16255", "gemini-3-pro-preview", "unknown", false, 0],
      [1, "ponylang__ponyc-4595", "openhands-codeact-0.35", "unknown", false, 0],
      [2, "astropy__astropy-12907", "gemini-3-pro-preview", "unknown", false, 0],
    ]);
    expect(runs.map((r) => (r.patch === null ? null : parseUnifiedDiff(r.patch, "p").map((f) => f.path)))).toEqual([
      ["django/contrib/sitemaps/__init__.py"],
      ["src/libponyc/ast/parser.c"],
      null,
    ]);
    expect(runs[0]!.task.benchmark).toBeNull();
  });

  it("reads a JSON list the same way", () => {
    const runs = readRuns(sweBenchPredictions, fixtureFile("swe-bench-predictions/preds-list.json"));
    expect(runs.map((r) => r.task.instanceId)).toEqual(["django__django-16255", "ponylang__ponyc-4595"]);
  });

  it("takes the benchmark from the file name when it says one, and the provider from a litellm model prefix", () => {
    const record = {
      instance_id: "django__django-16255",
      model_name_or_path: "anthropic/claude-sonnet-4",
      model_patch: "",
    };
    const [run] = readRuns(
      sweBenchPredictions,
      textFile("preds_swe-bench-verified.jsonl", `${JSON.stringify(record)}\n`),
    );
    expect([run!.task.benchmark, run!.agent.model, run!.agent.provider]).toEqual([
      "swe-bench-verified",
      "anthropic/claude-sonnet-4",
      "anthropic",
    ]);
  });

  it("refuses an empty file, truncated JSON, a wrong-type field and an oversized line, naming the line and field", () => {
    expect(readError(sweBenchPredictions, textFile("e.jsonl", ""))).toBe("ForeignFormatError: e.jsonl: is empty");
    expect(readError(sweBenchPredictions, textFile("t.jsonl", '{"instance_id": "a__b-1", "model_patch": "di'))).toMatch(
      /^ForeignFormatError: t\.jsonl \(line 1\): is not valid JSON/,
    );
    expect(
      readError(
        sweBenchPredictions,
        textFile(
          "w.jsonl",
          '{"instance_id": "a__b-1", "model_patch": ""}\n{"instance_id": "a__b-2", "model_patch": 7}\n',
        ),
      ),
    ).toMatch(/^ForeignFormatError: w\.jsonl \(line 2, model_patch\): /);
    expect(readError(sweBenchPredictions, textFile("l.json", '[{"instance_id": "../x", "model_patch": ""}]'))).toMatch(
      /^ForeignFormatError: l\.json \(\[0\], instance_id\): /,
    );
    expect(readError(sweBenchPredictions, textFile("o.json", '{"x": 1}'))).toMatch(/o\.json \(line 1, instance_id\)/);
    expect(
      readError(
        sweBenchPredictions,
        textFile("h.jsonl", `{"instance_id": "a__b-1", "model_patch": "${"x".repeat(33 * 1024 * 1024)}"}`),
      ),
    ).toMatch(/h\.jsonl \(line 1\): is over 33554432 bytes/);
  });
});
