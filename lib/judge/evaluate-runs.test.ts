import { describe, expect, it } from "vitest";
import { AstReportFileSchema } from "@/lib/bundle/schema";
import { METRIC_IDS } from "@/lib/metrics/catalog";
import { evaluateRuns, ruleRunJudge, type EvaluationStore, type JudgedVerdict, type RunJudge } from "./evaluate-runs";
import { evaluationInput } from "./input.fixture";
import { verdict } from "./schema";

function memoryStore(runIds: string[], withArtifact: string[] = []) {
  const saved = new Map<string, { verdicts: readonly JudgedVerdict[]; artifacts: { path: string; data: Buffer }[] }>();
  const store: EvaluationStore = {
    load: (runId) => {
      if (!runIds.includes(runId)) throw new Error(`run "${runId}" not found`);
      return evaluationInput({
        runId,
        changes: [
          {
            path: "pkg/a.py",
            kind: "updated",
            before: Buffer.from("def f(x):\n    pass\n"),
            after: Buffer.from("def f(x):\n    return x\n"),
          },
        ],
      });
    },
    hasArtifact: (runId, path) => withArtifact.includes(runId) && path === "reports/ast.json",
    save: (runId, verdicts, artifacts) => saved.set(runId, { verdicts, artifacts: [...artifacts] }),
  };
  return { store, saved };
}

describe("evaluateRuns", () => {
  it("judges each run with the rule judge and stores its AST report beside the verdicts", async () => {
    const { store, saved } = memoryStore(["a", "b"], ["b"]);
    const ended: string[] = [];
    const result = await evaluateRuns(store, ruleRunJudge(7, store), ["a", "b"], {
      concurrency: 2,
      onRun: (runId) => ended.push(runId),
    });
    expect(result).toMatchObject({ evaluated: 2, failures: [] });
    expect(ended.sort()).toEqual(["a", "b"]);
    const a = saved.get("a")!;
    expect(a.verdicts.map((v) => v.verdict.metric).sort()).toEqual([...METRIC_IDS].sort());
    expect(a.verdicts.every((v) => v.judgeId === 7)).toBe(true);
    expect(a.artifacts.map((x) => x.path)).toEqual(["reports/ast.json"]);
    const report = AstReportFileSchema.parse(JSON.parse(a.artifacts[0]!.data.toString("utf8")));
    expect(Object.keys(report.files)).toEqual(["pkg/a.py"]);
    // A run that has its report keeps it, unless forced.
    expect(saved.get("b")!.artifacts).toEqual([]);
    await evaluateRuns(store, ruleRunJudge(7, { ...store, force: true }), ["b"], { concurrency: 1 });
    expect(saved.get("b")!.artifacts).toHaveLength(1);
  });

  it("records a run that fails and goes on with the others, counting violations per metric", async () => {
    const { store, saved } = memoryStore(["a", "c"]);
    const judge: RunJudge = {
      label: "test judge",
      judgeIdByMetric: new Map([["syntax", 1]]),
      judge: async (input) => [verdict("syntax", input.runId === "a" ? "violated" : "not_violated", "")],
      close: async () => {},
    };
    const errors: string[] = [];
    const result = await evaluateRuns(store, judge, ["a", "missing", "c"], {
      concurrency: 1,
      onRun: (runId, error) => error && errors.push(`${runId}: ${error}`),
    });
    expect(result.evaluated).toBe(2);
    expect(result.failures).toEqual([{ runId: "missing", error: 'run "missing" not found' }]);
    expect(errors).toEqual(['missing: run "missing" not found']);
    expect(result.violations).toEqual(new Map([["syntax", 1]]));
    expect([...saved.keys()]).toEqual(["a", "c"]);
  });

  it("stores runs in batches where the store can, one by one when a batch fails", async () => {
    const { store, saved } = memoryStore(["a", "b", "bad", "c"]);
    const batches: string[][] = [];
    store.saveBatch = (runs) => {
      batches.push(runs.map((r) => r.runId));
      if (runs.some((r) => r.runId === "bad")) throw new Error("the batch fails");
      for (const r of runs) store.save(r.runId, r.verdicts, r.artifacts);
    };
    const save = store.save;
    store.save = (runId, verdicts, artifacts) => {
      if (runId === "bad") throw new Error("cannot store bad");
      save(runId, verdicts, artifacts);
    };
    const judge: RunJudge = {
      label: "test judge",
      judgeIdByMetric: new Map([["syntax", 1]]),
      judge: async () => [verdict("syntax", "violated", "")],
      close: async () => {},
    };
    const ended: string[] = [];
    const result = await evaluateRuns(store, judge, ["a", "b"], { concurrency: 2, onRun: (id) => ended.push(id) });
    expect(result).toMatchObject({ evaluated: 2, failures: [] });
    expect(batches).toEqual([["a", "b"]]);
    expect(ended.sort()).toEqual(["a", "b"]);

    const second = await evaluateRuns(store, judge, ["bad", "c"], { concurrency: 1 });
    expect(second.failures).toEqual([{ runId: "bad", error: "cannot store bad" }]);
    expect(second.violations).toEqual(new Map([["syntax", 1]]));
    expect([...saved.keys()].sort()).toEqual(["a", "b", "c"]);
  });

  it("stores a judged run within a second, without waiting for a slow run after it", async () => {
    const { store } = memoryStore(["a", "b"]);
    store.saveBatch = (runs) => runs.forEach((r) => store.save(r.runId, r.verdicts, r.artifacts));
    const events: string[] = [];
    let aStored: () => void = () => {};
    const stored = new Promise<void>((resolve) => (aStored = resolve));
    const judge: RunJudge = {
      label: "test judge",
      judgeIdByMetric: new Map([["syntax", 1]]),
      judge: async (input) => {
        // b is judged slowly: it ends once a is stored, or after 5 s.
        if (input.runId === "b") await Promise.race([stored, new Promise((r) => setTimeout(r, 5_000))]);
        events.push(`judged ${input.runId}`);
        return [verdict("syntax", "not_violated", "")];
      },
      close: async () => {},
    };
    await evaluateRuns(store, judge, ["a", "b"], {
      concurrency: 2,
      onRun: (runId) => {
        events.push(`stored ${runId}`);
        if (runId === "a") aStored();
      },
    });
    expect(events).toEqual(["judged a", "stored a", "judged b", "stored b"]);
  });

  it("fails a run whose judge scores a metric it has no judge row for, storing nothing", async () => {
    const { store, saved } = memoryStore(["a"]);
    const judge: RunJudge = {
      label: "test judge",
      judgeIdByMetric: new Map(),
      judge: async () => [verdict("context", "violated", "")],
      close: async () => {},
    };
    const result = await evaluateRuns(store, judge, ["a"], { concurrency: 1 });
    expect(result.failures[0]?.error).toBe("the test judge judged context, which it has no judge row for");
    expect(saved.size).toBe(0);
  });
});
