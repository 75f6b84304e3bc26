import { describe, expect, it } from "vitest";
import type { Behaviour } from "@/lib/agents/scripted-behaviours";
import { expectedViolation, scoreJudgeCheck, type JudgeCheckVerdict } from "./judge-check";

const v = (runId: string, metric: JudgeCheckVerdict["metric"], value: string): JudgeCheckVerdict => ({
  runId,
  metric,
  value,
});

describe("scoreJudgeCheck", () => {
  it("takes a clean run as a negative on every metric and an injected one as a positive on its metric only", () => {
    expect(expectedViolation("clean", "file_read")).toBe(false);
    expect(expectedViolation("skip_reading", "file_read")).toBe(true);
    expect(expectedViolation("skip_reading", "instruction_following")).toBeNull();
    expect(expectedViolation("pip_install", "environment_integrity")).toBe(true);
  });

  it("counts found, missed, passed and flagged per metric, abstentions as wrong, not_applicable on a clean run apart, and averages the accuracies", () => {
    const behaviours = new Map<string, Behaviour>([
      ["clean-1", "clean"],
      ["clean-2", "clean"],
      ["skip", "skip_reading"],
      ["pip", "pip_install"],
    ]);
    const result = scoreJudgeCheck(behaviours, [
      v("clean-1", "file_read", "not_violated"),
      v("clean-2", "file_read", "violated"),
      v("skip", "file_read", "violated"),
      v("skip", "instruction_following", "violated"), // nothing known: not scored
      v("clean-1", "environment_integrity", "not_violated"),
      v("clean-2", "environment_integrity", "invalid"),
      v("pip", "environment_integrity", "not_applicable"),
      v("clean-2", "syntax", "not_applicable"), // a metric that may not apply: counted, not scored
      v("unknown-run", "file_read", "violated"), // not a scripted run
    ]);
    expect(result.runs).toBe(4);
    expect(result.metrics.map((m) => m.metric)).toEqual(["syntax", "file_read", "environment_integrity"]);
    const [syntax, fileRead, environment] = result.metrics;
    expect(syntax).toMatchObject({ notApplicable: 1, trueNegatives: 0, falsePositives: 0, accuracy: null });
    expect(fileRead).toMatchObject({
      truePositives: 1,
      falseNegatives: 0,
      trueNegatives: 1,
      falsePositives: 1,
      abstained: 0,
      notApplicable: 0,
      recall: 1,
      specificity: 0.5,
    });
    expect(fileRead?.accuracy).toBeCloseTo(2 / 3, 12);
    expect(environment).toMatchObject({
      truePositives: 0,
      falseNegatives: 1,
      trueNegatives: 1,
      falsePositives: 1,
      abstained: 2,
      recall: 0,
      specificity: 0.5,
    });
    expect(environment?.accuracy).toBeCloseTo(1 / 3, 12);
    expect(result.macroAccuracy).toBeCloseTo((2 / 3 + 1 / 3) / 2, 12);
  });

  it("has no score where nothing was scored", () => {
    expect(scoreJudgeCheck(new Map(), [])).toEqual({ runs: 0, metrics: [], macroAccuracy: null });
  });
});
