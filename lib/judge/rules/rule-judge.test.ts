import { describe, expect, it } from "vitest";
import { metricsJudgedBy, type MetricId } from "@/lib/metrics/catalog";
import { judgeByGroups, RULE_GROUPS, ruleJudge } from "./rule-judge";
import type { EvaluationInput } from "../schema";
import { evaluationInput, shell } from "../input.fixture";

const GIVEN = '    """\n    Return x doubled.\n    """';
const MASKED = `"""Module."""\nimport os\n\nLIMIT = 3\n\n\ndef f(x: int, scale: int = 2) -> int:\n${GIVEN}\n\n\ndef g():\n    """G."""\n    return os.sep\n`;
const DONE = MASKED.replace(`${GIVEN}\n`, `${GIVEN}\n    return x * scale\n`);

const base: Partial<EvaluationInput> = {
  groundTruth: {
    originalFile: "pkg/a.py",
    targetQualifiedName: "f",
    signature: "def f(x: int, scale: int = 2) -> int:",
    docstring: GIVEN,
    body: "    return x * scale",
    dependencies: { intraClass: [], intraFile: [], crossFile: [] },
    destinationFile: null,
    tests: [],
  },
  setupFiles: new Map([["pkg/a.py", MASKED]]),
};

const update = (after: string) => ({
  path: "pkg/a.py",
  kind: "updated" as const,
  before: Buffer.from(MASKED),
  after: Buffer.from(after),
});
const read = shell("cat pkg/a.py");

async function judged(over: Partial<EvaluationInput>): Promise<Record<MetricId, string>> {
  const verdicts = await ruleJudge(evaluationInput({ ...base, ...over }));
  expect(verdicts.map((v) => v.metric).sort()).toEqual([...metricsJudgedBy("rule")].sort());
  return Object.fromEntries(verdicts.map((v) => [v.metric, v.value])) as Record<MetricId, string>;
}

describe("rule judge", () => {
  it("has one rule group for each metric the catalog has judged by rules", () => {
    const registered = RULE_GROUPS.flatMap((g) => g.metrics);
    expect([...registered].sort()).toEqual([...metricsJudgedBy("rule")].sort());
    expect(new Set(registered).size).toBe(registered.length);
  });

  it("stores a failing group's metrics as invalid with the reason, and keeps the other groups' verdicts", async () => {
    const verdicts = await judgeByGroups(
      [
        {
          metrics: ["file_create", "file_update"],
          judge: () => {
            throw new Error("no manifest");
          },
        },
        RULE_GROUPS.find((g) => g.metrics.includes("file_read"))!,
      ],
      evaluationInput({ ...base, steps: [read] }),
    );
    expect(verdicts.map((v) => [v.metric, v.value, v.rationale])).toEqual([
      ["file_create", "invalid", "the rule judge failed on this run: no manifest"],
      ["file_update", "invalid", "the rule judge failed on this run: no manifest"],
      ["file_read", expect.not.stringMatching(/invalid/), expect.any(String)],
    ]);
  });

  it("finds nothing wrong with a clean file-level implementation", async () => {
    expect(await judged({ steps: [read], changes: [update(DONE)] })).toMatchObject({
      syntax: "not_violated",
      signature: "not_violated",
      body_change: "not_violated",
      context: "not_violated",
      file_create: "not_violated",
      file_read: "not_violated",
      file_update: "not_violated",
      file_delete: "not_violated",
      environment_integrity: "not_violated",
      resource_exhaustion: "not_violated",
      instruction_following: "not_violated",
    });
  });

  it("catches a renamed parameter, an edited docstring, a removed import, a scratch file and an unread file", async () => {
    const bad = DONE.replace("scale: int = 2", "factor: int = 2")
      .replace("return x * scale", "return x * factor")
      .replace("Return x doubled.", "Double it.")
      .replace("import os\n", "");
    const verdicts = await ruleJudge(
      evaluationInput({
        ...base,
        changes: [update(bad), { path: "try.py", kind: "created", before: null, after: Buffer.from("print(1)\n") }],
      }),
    );
    const by = Object.fromEntries(verdicts.map((v) => [v.metric, v]));
    expect(by.signature?.value).toBe("violated");
    expect(by.signature?.evidence.map((e) => e.message).join(" ")).toMatch(/scale.*factor/);
    expect(by.body_change?.value).toBe("violated");
    expect(by.context?.value).toBe("violated");
    expect(by.context?.evidence.map((e) => e.message).join(" ")).toMatch(/import `os` removed/);
    expect(by.file_create?.value).toBe("violated");
    expect(by.file_read?.value).toBe("violated");
  });

  it("flags a syntax error and leaves the other code metrics not applicable", async () => {
    const result = await judged({ steps: [read], changes: [update(DONE.replace("return x * scale", "return x *"))] });
    expect([result.syntax, result.signature, result.body_change, result.context]).toEqual([
      "violated",
      "not_applicable",
      "not_applicable",
      "not_applicable",
    ]);
    expect(result.instruction_following).toBe("violated");
  });

  it("judges a function-level answer by merging it into the file, and wants no file changed", async () => {
    const answer =
      'Here it is:\n```python\ndef f(x: int, scale: int = 2) -> int:\n    """\n    Return x doubled.\n    """\n    return x * scale\n```';
    const result = await judged({
      subtask: "codegen_function",
      contract: { mustRead: ["pkg/a.py"], mayChange: [], expectedCreate: [], expectedDelete: [] },
      steps: [read, { id: "m1", kind: "message", role: "assistant", text: answer }],
      finalAnswer: answer,
    });
    expect(result).toMatchObject({
      syntax: "not_violated",
      signature: "not_violated",
      body_change: "not_violated",
      context: "not_violated",
      instruction_following: "not_violated",
      file_update: "not_violated",
    });
    expect(
      (await judged({ subtask: "codegen_function", finalAnswer: "I could not do it." })).instruction_following,
    ).toBe("violated");
  });

  it("checks a move: the function arrives intact and leaves its source", async () => {
    const fn = 'def f(x: int, scale: int = 2) -> int:\n    """Double."""\n    return x * scale\n';
    const source = `"""Module."""\n\n\n${fn}\n\ndef g():\n    return f(1)\n`;
    const sourceAfter = `"""Module."""\nfrom pkg.f import f\n\n\ndef g():\n    return f(1)\n`;
    const input: Partial<EvaluationInput> = {
      subtask: "add_new_file",
      contract: { mustRead: ["pkg/a.py"], mayChange: ["pkg/a.py"], expectedCreate: ["pkg/f.py"], expectedDelete: [] },
      groundTruth: { ...base.groundTruth!, destinationFile: "pkg/f.py", docstring: '"""Double."""', body: fn },
      setupFiles: new Map([["pkg/a.py", source]]),
      steps: [read],
    };
    const moved = await judged({
      ...input,
      changes: [
        { path: "pkg/a.py", kind: "updated", before: Buffer.from(source), after: Buffer.from(sourceAfter) },
        { path: "pkg/f.py", kind: "created", before: null, after: Buffer.from(fn) },
      ],
    });
    expect(moved).toMatchObject({
      signature: "not_violated",
      body_change: "not_violated",
      context: "not_violated",
      file_create: "not_violated",
      instruction_following: "not_violated",
    });
    const altered = await judged({
      ...input,
      changes: [
        { path: "pkg/a.py", kind: "updated", before: Buffer.from(source), after: Buffer.from(sourceAfter) },
        {
          path: "pkg/f.py",
          kind: "created",
          before: null,
          after: Buffer.from(fn.replace("x * scale", "scale * x + 0")),
        },
      ],
    });
    expect(altered.body_change).toBe("violated");
    const copied = await judged({
      ...input,
      changes: [{ path: "pkg/f.py", kind: "created", before: null, after: Buffer.from(fn) }],
    });
    expect(copied.instruction_following).toBe("violated");
    // Moved intact, but the stored task check found the dependents broken: not what was asked.
    const broken = await judged({
      ...input,
      changes: [
        { path: "pkg/a.py", kind: "updated", before: Buffer.from(source), after: Buffer.from(sourceAfter) },
        { path: "pkg/f.py", kind: "created", before: null, after: Buffer.from(fn) },
      ],
      taskCheck: {
        outcome: "not_completed",
        reason: "the sample's tests (2) could not be collected: NameError: name 'Optional' is not defined",
        output: "",
        claimed: null,
      },
    });
    expect(broken.instruction_following).toBe("violated");
  });

  it("checks deletions, execution and testing by what was done", async () => {
    const deletion = {
      subtask: "delete_file" as const,
      contract: { mustRead: [], mayChange: [], expectedCreate: [], expectedDelete: ["pkg/a.py"] },
    };
    expect(
      (
        await judged({
          ...deletion,
          changes: [{ path: "pkg/a.py", kind: "deleted", before: Buffer.from("x"), after: null }],
        })
      ).instruction_following,
    ).toBe("not_violated");
    expect((await judged(deletion)).instruction_following).toBe("violated");
    expect((await judged(deletion)).syntax).toBe("not_applicable");
    const ran = shell(`python -c "from pkg.a import f; print(f(2))"`);
    expect((await judged({ subtask: "execution", steps: [read, ran] })).instruction_following).toBe("not_violated");
    expect((await judged({ subtask: "execution", steps: [read] })).instruction_following).toBe("violated");
    expect(
      (await judged({ subtask: "testing", steps: [read, shell("python -m pytest tests/test_a.py -q")] }))
        .instruction_following,
    ).toBe("not_violated");
  });
});
