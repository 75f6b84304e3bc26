import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { generatedRunRecord } from "@/lib/bundle/generated-records";
import { bundleFilesOf, type RunRecord } from "@/lib/bundle/write";
import type { MitigationPlan } from "@/lib/codekit/mitigation";
import { createDb } from "../client";
import { getChangedFileContent } from "./run-changes";
import { getRunDetail, SANDBOX_RECORD_LIMIT, STEP_TEXT_LIMIT } from "./run-detail";
import { importParsedBundle } from "./run-import";

function withRun(record: RunRecord) {
  const db = createDb(":memory:");
  importParsedBundle(db, parseBundle(bundleFilesOf(record), "test"), { via: "cli" });
  return { db, runId: record.manifest.runId };
}

function codegenFileRun(): RunRecord {
  const record = generatedRunRecord({ index: 3, seed: 9 });
  return { ...record, instance: { ...record.instance!, subtask: "codegen_file" } };
}

describe("getRunDetail", () => {
  it("answers null for a run that does not exist", async () => {
    expect(await getRunDetail(createDb(":memory:"), "nope")).toBeNull();
  });

  it("carries the configuration's arm and the run's mitigation plan; none for a plain run", async () => {
    const plain = withRun(generatedRunRecord({ index: 4, seed: 9 }));
    expect(await getRunDetail(plain.db, plain.runId)).toMatchObject({ arm: "none", mitigation: null });
    const record = generatedRunRecord({ index: 5, seed: 9 });
    const plan: MitigationPlan = {
      arm: "codekit",
      rules: [{ metric: "file_read", version: 1 }],
      tools: ["trace_references"],
      guard: false,
      selector: {
        source: "fallback",
        promptVersion: "v1",
        provider: null,
        model: null,
        cached: false,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: null,
        error: null,
        reason: null,
      },
    };
    record.manifest.agent.options = { ...record.manifest.agent.options, mitigation: "codekit" };
    record.manifest.mitigation = plan;
    const { db, runId } = withRun(record);
    expect(await getRunDetail(db, runId)).toMatchObject({ arm: "codekit", mitigation: plan });
  });

  it("reads the guard's record from the run's sandbox.json, and leaves out one that is not the runner's", async () => {
    const guarded = (sandboxJson: string | Buffer) => {
      const record = generatedRunRecord({ index: 6, seed: 9 });
      record.manifest.agent.options = { ...record.manifest.agent.options, mitigation: "guard" };
      record.native = new Map([["sandbox.json", Buffer.from(sandboxJson)]]);
      return withRun(record);
    };
    const guard = {
      writableFolders: ["pkg"],
      gaps: ["pkg/: new files other than the expected ones can be created here"],
      breaches: ["pkg/extra.py created"],
    };
    const good = guarded(JSON.stringify({ isolated: true, description: "bubblewrap", guard }));
    expect((await getRunDetail(good.db, good.runId))?.guard).toEqual(guard);
    const unguarded = guarded(JSON.stringify({ isolated: true, description: "bubblewrap" }));
    expect((await getRunDetail(unguarded.db, unguarded.runId))?.guard).toBeNull();
    for (const hostile of [
      "{ not json",
      JSON.stringify({ isolated: true, description: "x", guard: { ...guard, breaches: "all" } }),
      JSON.stringify({ isolated: true, description: "x", guard, extra: 1 }),
      Buffer.alloc(SANDBOX_RECORD_LIMIT + 1, 0x20),
    ]) {
      const run = guarded(hostile);
      expect((await getRunDetail(run.db, run.runId))?.guard).toBeNull();
    }
  });

  it("returns the run with its steps, contract marks, diffs and target comparison", async () => {
    const record = codegenFileRun();
    const { db, runId } = withRun(record);
    const run = (await getRunDetail(db, runId))!;
    expect(run.id).toBe(runId);
    expect(run.steps).toHaveLength(50);
    expect(run.contract).toEqual(record.instance!.contract);

    // Reads of the target (a required read) are marked; other reads are not.
    const target = record.instance!.contract.mayChange[0]!;
    for (const step of run.steps.filter((s) => s.kind === "file_read")) {
      expect(step.marks).toEqual(
        step.path === target || step.path === record.instance!.contract.mustRead[1]
          ? [{ kind: "required_read", severity: "ok", path: step.path }]
          : [],
      );
    }
    const call = run.steps.find((s) => s.kind === "tool_call")!;
    expect(JSON.parse(call.toolArguments!)).toEqual({ path: expect.any(String) });
    expect(call.toolArguments).toContain("\n  ");

    expect(run.changes.map((c) => c.kind).sort()).toEqual(["created", "deleted", "updated", "updated", "updated"]);
    const updated = run.changes.find((c) => c.path === target)!;
    expect(updated.content).toEqual({
      status: "inline",
      before: record.before.get(target)!.data.toString(),
      after: record.after.get(target)!.data.toString(),
    });
    expect(run.changes.find((c) => c.kind === "created")!.content).toMatchObject({ status: "inline", before: "" });
    expect(run.changes.find((c) => c.kind === "deleted")!.content).toMatchObject({ status: "inline", after: "" });

    expect(run.target).toMatchObject({
      qualifiedName: "mod_0_helper_0",
      source: "file",
      problem: null,
      groundTruth: "def mod_0_helper_0(value: Any, *, strict: bool = False) -> Any:\n    return value",
    });
    expect(run.target!.agent).toMatch(/^def mod_0_helper_0\(/);
    expect(run.verdicts).toEqual([]);
  });

  it("defers diffs past the inline budget to the files route, which serves them", async () => {
    const { db, runId } = withRun(codegenFileRun());
    const run = (await getRunDetail(db, runId, { inlineBudgetBytes: 0 }))!;
    expect(run.changes.every((c) => c.content.status === "deferred")).toBe(true);
    const path = run.changes[0]!.path;
    expect(getChangedFileContent(db, runId, path)).toMatchObject({ status: "inline" });
    expect(getChangedFileContent(db, runId, path, 10)).toEqual({ status: "too_large", limitBytes: 10 });
    expect(getChangedFileContent(db, runId, "not/changed.py")).toBeNull();
  });

  it("notes binary files and cuts long step texts", async () => {
    const record = codegenFileRun();
    record.after.set("logo.png", { data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]), mode: 0o100644 });
    record.steps.push({ id: "long", kind: "observation", text: "y".repeat(STEP_TEXT_LIMIT + 10), isError: false });
    const { db, runId } = withRun(record);
    const run = (await getRunDetail(db, runId))!;
    expect(run.changes.find((c) => c.path === "logo.png")!.content).toEqual({ status: "binary" });
    const long = run.steps.at(-1)!;
    expect(long.text).toHaveLength(STEP_TEXT_LIMIT);
    expect(long.textLength).toBe(STEP_TEXT_LIMIT + 10);
    expect(run.steps[0]!.textLength).toBeNull();
  });

  it("has no target comparison outside code generation", async () => {
    const record = generatedRunRecord({ index: 3, seed: 9 });
    const { db, runId } = withRun({ ...record, instance: { ...record.instance!, subtask: "delete_file" } });
    expect((await getRunDetail(db, runId))!.target).toBeNull();
  });
});
