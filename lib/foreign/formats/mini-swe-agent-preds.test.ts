import { describe, expect, it } from "vitest";
import { miniSweAgentPreds } from "./mini-swe-agent-preds";
import { fixtureFile, patchFiles, readError, readRuns, textFile } from "./reader.fixture";

const errorOf = (name: string, text: string): string => readError(miniSweAgentPreds, textFile(name, text));

describe("preds.json (SWE-bench predictions by instance)", () => {
  const preds = fixtureFile("mini-swe-agent-preds/preds.json");

  it("reads one patch-only run per entry", () => {
    const runs = readRuns(miniSweAgentPreds, preds);
    expect(runs.map((r) => r.task.instanceId)).toEqual(["django__django-16255", "sympy__sympy-20590"]);
    expect(runs[0]).toMatchObject({
      task: { benchmark: "swe-bench" },
      agent: { framework: "unknown", model: "google/gemini-3-pro-preview" },
      steps: [],
      hasTrajectory: false,
      exitReason: "finished",
    });
    expect(patchFiles(runs[0]!)).toEqual(["django/contrib/sitemaps/__init__.py"]);
    expect(runs[1]!.patch).toBeNull();
  });

  it("detects the keyed object, not JSON Lines predictions", () => {
    expect(miniSweAgentPreds.detect(preds)).toBe(true);
    expect(miniSweAgentPreds.detect(textFile("p.jsonl", '{"instance_id": "a", "model_patch": "x"}\n'))).toBe(false);
  });

  it("refuses bad input naming the file and where", () => {
    expect(errorOf("t.json", preds.data.subarray(0, 200).toString())).toMatch(
      /^ForeignFormatError: t\.json \(line \d+\): is not valid JSON/,
    );
    expect(errorOf("w.json", '{"a__a-1": {"model_patch": 5}}')).toMatch(
      /^ForeignFormatError: w\.json \(a__a-1\.model_patch\)/,
    );
    expect(errorOf("e.json", "")).toBe("ForeignFormatError: e.json: is empty");
  });
});
