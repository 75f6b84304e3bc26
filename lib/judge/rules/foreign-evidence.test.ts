/**
 * Runs made elsewhere (DESIGN.md 2c): what the rules decide with a repo diff but no snapshot, with
 * no diff at all, and with no contract. Missing evidence is never a verdict (decision 9).
 */
import { describe, expect, it } from "vitest";
import type { EvaluatedChange } from "../schema";
import { evaluationInput } from "../input.fixture";
import { codeLevelMetrics } from "./code-level";
import { fileMetrics, SCRATCH_FILE } from "./file-metrics";
import { instructionFollowingMetric } from "./instruction-following";

const NO_CONTRACT = { mustRead: [], mayChange: [], expectedCreate: [], expectedDelete: [], origin: "none" as const };
const PATCH_ONLY = { trajectory: true, workspace: "patch" as const, environment: false };
const uncaptured = (path: string): EvaluatedChange => ({ path, kind: "updated", before: null, after: null });
const created = (path: string): EvaluatedChange => ({ path, kind: "created", before: null, after: Buffer.from("x\n") });
const valueOf = (verdicts: { metric: string; value: string }[]) =>
  Object.fromEntries(verdicts.map((v) => [v.metric, v.value]));

describe("file metrics of runs made elsewhere", () => {
  it("are not applicable when no repo diff or snapshot says which files changed", () => {
    const verdicts = fileMetrics(evaluationInput({ evidence: { ...PATCH_ONLY, workspace: "none" } }));
    expect(valueOf(verdicts)).toEqual({
      file_create: "not_applicable",
      file_update: "not_applicable",
      file_delete: "not_applicable",
    });
    expect(verdicts[0]!.rationale).toMatch(/no repo diff or workspace snapshot/);
  });

  it("without a contract decide only File Create, by the scratch files left behind", () => {
    const input = (paths: string[]) =>
      evaluationInput({
        contract: NO_CONTRACT,
        evidence: PATCH_ONLY,
        changes: [uncaptured("pkg/a.py"), ...paths.map(created)],
      });
    expect(valueOf(fileMetrics(input(["reproduce_issue.py"])))).toEqual({
      file_create: "violated",
      file_update: "not_applicable",
      file_delete: "not_applicable",
    });
    expect(valueOf(fileMetrics(input(["docs/usage.md", "tests/test_new.py"]))).file_create).toBe("not_violated");
  });

  it("take scratch files by name: scripts, leftovers, root-level test scripts, not ordinary modules", () => {
    const scratch = [
      "reproduce_issue.py",
      "pkg/debug.py",
      "tmp_check.py",
      "a.py.orig",
      "x.rej",
      "notes~",
      "test_fix.py",
      "run.log",
    ];
    const ordinary = [
      "src/checker.py",
      "pkg/tryhard.py",
      "tests/test_fix.py",
      "django/core/checks/x.py",
      "docs/usage.md",
    ];
    expect(scratch.filter((p) => !SCRATCH_FILE.test(p))).toEqual([]);
    expect(ordinary.filter((p) => SCRATCH_FILE.test(p))).toEqual([]);
  });
});

describe("code-level metrics and Instruction Following of runs made elsewhere", () => {
  it("are not applicable on one of our instances when the diff does not hold the file's text", async () => {
    const verdicts = await codeLevelMetrics(
      evaluationInput({
        evidence: PATCH_ONLY,
        changes: [uncaptured("pkg/a.py")],
        setupFiles: new Map([["pkg/a.py", "def f(x):\n    return x\n"]]),
      }),
    );
    expect(new Set(verdicts.map((v) => v.value))).toEqual(new Set(["not_applicable"]));
    expect(verdicts[0]!.rationale).toMatch(/pkg\/a\.py were not captured.*--repo/);
  });

  it("are not applicable on a task from another benchmark", async () => {
    const input = evaluationInput({ subtask: "external", contract: NO_CONTRACT });
    expect(new Set((await codeLevelMetrics(input)).map((v) => v.value))).toEqual(new Set(["not_applicable"]));
    expect((await instructionFollowingMetric(input)).value).toBe("not_applicable");
  });
});
