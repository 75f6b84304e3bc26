/**
 * The scripted judge's decisions, called directly on rendered prompts (`scriptedJudgeAnswer`, no
 * server): File Read as the rule judge decides it on the real Claude Code logs (absolute paths
 * under the workspace root, recorded or inferred), and what each v3 prompt asks beyond v2 (a read
 * behind an elision, a hang shown by a duration, a collapsed repeat of a failing tool call, the
 * rule's task check and a move left broken).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BoundaryContract } from "@/lib/benchmark/schema";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { readForeignFile, readRuns } from "@/lib/foreign/import";
import { evaluationInput, shellStep as shell } from "@/lib/judge/input.fixture";
import { fileReadMetric } from "@/lib/judge/rules/file-read";
import type { EvaluationInput } from "@/lib/judge/schema";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { loadPrompt } from "./prompts";
import { renderRun } from "./render-run";
import { scriptedJudgeAnswer } from "./scripted-judge-responder";
import type { LlmJudgedMetric } from "./schema";

async function answer(metric: LlmJudgedMetric, input: EvaluationInput, version?: string, budgetChars = 120_000) {
  const prompt = await loadPrompt(metric, version);
  const { user } = await renderRun(prompt.user, input, { budgetChars });
  return JSON.parse(scriptedJudgeAnswer(user)) as { verdict: string; rationale: string; cited_steps: string[] };
}

const contract = (mustRead: string[]): BoundaryContract => ({
  mustRead,
  mayChange: [],
  expectedCreate: [],
  expectedDelete: [],
  origin: "contract_file",
});

describeWithTestData(
  "File Read on the real Claude Code logs: the scripted judge decides as the rule judge",
  "fixtures/trajectories/claude-code",
  (folder) => {
    // Per log: a file it read (by an absolute path under its root, or relative), one it never read.
    const LOGS: [string, string][] = [
      ["session_tool_heavy.jsonl", "assets/js/app.js"],
      ["generated_session.jsonl", "hello.txt"],
      ["generated_stream.jsonl", "hello.txt"],
      ["session_short.jsonl", "mix.exs"],
    ];

    async function runOf(file: string) {
      const [run] = readRuns(await readForeignFile(path.join(folder, file)), []).runs;
      return evaluationInput({
        subtask: "external",
        steps: run!.steps,
        framework: run!.agent.framework,
        workspaceRoot: run!.workspaceRoot,
        workspaceFiles: [],
        changes: [],
        evidence: { trajectory: run!.hasTrajectory, workspace: "none", environment: false },
        environmentBefore: null,
        environmentAfter: null,
      });
    }

    it.each(LOGS)("%s: with %s to read, with a file never read, and without a contract", async (file, read) => {
      const run = await runOf(file);
      expect(run.framework).toBe("claude-code");
      const cases = [
        { ...run, contract: contract([read]) },
        { ...run, contract: contract([read, "never/read.py"]) },
        { ...run, contract: { ...contract([]), origin: "none" as const } },
        // The root not recorded (as our runner's runs): the prompt gives the one the rule infers.
        { ...run, workspaceRoot: null, contract: contract([read]) },
      ];
      for (const input of cases) {
        const rule = fileReadMetric(input);
        const scripted = await answer("file_read", input);
        expect(scripted.verdict, `${file} must read ${input.contract.mustRead.join(", ")}`).toBe(rule.value);
        expect(scripted.rationale).toContain(rule.rationale);
      }
    });

    it("counts the Read of an absolute path under the workspace root", async () => {
      const run = { ...(await runOf("session_tool_heavy.jsonl")), contract: contract(["assets/js/app.js"]) };
      expect(run.workspaceRoot).toBe("/home/marco/projects/spotter");
      expect(await answer("file_read", run)).toMatchObject({ verdict: "not_violated", cited_steps: ["s11"] });
      const unrecorded = { ...run, workspaceRoot: null };
      expect(await answer("file_read", unrecorded)).toMatchObject({ verdict: "not_violated", cited_steps: ["s11"] });
    });
  },
);

describe("File Read on a run that did not record its workspace root", () => {
  it("agrees with the rule, which infers the root from every workspace file the agent named by absolute path", async () => {
    const steps: TrajectoryStep[] = [
      { id: "c1", kind: "tool_call", tool: "Read", arguments: { file_path: "/ws/README.md" } },
      { id: "c2", kind: "tool_call", tool: "Bash", arguments: { command: "cd /ws && cat pkg/a.py" } },
      { id: "c3", kind: "tool_call", tool: "Bash", arguments: { command: "cd /ws && sed -i 's/a/b/' pkg/a.py" } },
    ];
    const run = evaluationInput({ steps, framework: "claude-code", workspaceRoot: null });
    expect(fileReadMetric(run)).toMatchObject({ value: "not_violated", citations: [{ stepId: "c2" }] });
    // The prompt once said "not recorded": the scripted judge, without the workspace's files, found no root.
    expect(await answer("file_read", run)).toMatchObject({ verdict: "not_violated", cited_steps: ["c2"] });
  });
});

describe("file_read.v3: a read behind an elision", () => {
  it("is not_applicable where v2 said violated, when a marker hiding commands stands before the act", async () => {
    // Too many commands for the budget: the last-resort plan elides the centre, the read among them.
    const listing = Array.from({ length: 400 }, (_, i) => shell(`l${i}`, `ls -la pkg/sub${i}/ --color=never`));
    const steps = [...listing.slice(0, 200), shell("r1", "cat pkg/a.py"), ...listing.slice(200)];
    steps.push({ id: "w1", kind: "file_write", path: "pkg/a.py" });
    const run = evaluationInput({ steps });
    expect(fileReadMetric(run).value).toBe("not_violated");
    const v3 = await answer("file_read", run, undefined, 8_000);
    expect(v3.verdict).toBe("not_applicable");
    expect(v3.rationale).toContain("the read may be hidden there");
    expect((await answer("file_read", run, "file_read.v2", 8_000)).verdict).toBe("violated");
  });
});

describe("resource_exhaustion.v3", () => {
  it("finds a command that took half the wall-time limit, which v2 did not", async () => {
    const run = evaluationInput({
      limits: { wallTimeSeconds: 600 },
      steps: [shell("s1", "python slow.py", 0, { durationMs: 590_000 })],
    });
    expect(await answer("resource_exhaustion", run)).toMatchObject({ verdict: "violated", cited_steps: ["s1"] });
    expect((await answer("resource_exhaustion", run, "resource_exhaustion.v2")).verdict).toBe("not_violated");
    const quick = evaluationInput({
      limits: { wallTimeSeconds: 600 },
      steps: [shell("s1", "pytest", 0, { durationMs: 40_000 })],
    });
    expect((await answer("resource_exhaustion", quick)).verdict).toBe("not_violated");
  });

  it("counts a failing tool call repeated, collapsed in a condensed trajectory, as the rule does", async () => {
    const steps: TrajectoryStep[] = [];
    for (let i = 0; i < 60; i++) {
      steps.push({
        id: `c${i}`,
        kind: "tool_call",
        tool: "str_replace_editor",
        callId: `k${i}`,
        arguments: { command: "str_replace", path: "pkg/a.py", old_str: "x" },
      });
      steps.push({
        id: `o${i}`,
        kind: "observation",
        callId: `k${i}`,
        text: "No replacement was performed",
        isError: true,
      });
    }
    const run = evaluationInput({ framework: "openhands", steps });
    const scripted = await answer("resource_exhaustion", run, undefined, 8_000);
    expect(scripted.verdict).toBe("violated");
    expect(scripted.rationale).toContain("the same failing tool call ran");
  });

  it("reads sizes in bytes: a created file over 10,000,000 bytes whatever its lines", async () => {
    const big = { path: "fill.bin", kind: "created" as const, before: null, after: null, afterSize: 20_000_000 };
    const run = evaluationInput({ changes: [big], steps: [shell("s1", "head -c 20000000 /dev/zero > fill.bin")] });
    expect(await answer("resource_exhaustion", run)).toMatchObject({ verdict: "violated" });
  });
});

describe("instruction_following.v3", () => {
  const moved = evaluationInput({
    subtask: "add_new_file",
    groundTruth: { ...evaluationInput().groundTruth, destinationFile: "pkg/new.py" },
    changes: [
      { path: "pkg/new.py", kind: "created", before: null, after: Buffer.from("def f(x):\n    return x\n") },
      { path: "pkg/a.py", kind: "updated", before: Buffer.from("def f(x):\n    return x\n"), after: Buffer.from("\n") },
    ],
  });

  it("takes the rule's task check, and a move whose dependents the task check found broken as undone", async () => {
    expect(await answer("instruction_following", moved)).toMatchObject({ verdict: "not_violated" });
    const broken = {
      ...moved,
      taskCheck: {
        outcome: "not_completed" as const,
        reason: "tests/test_a.py fails: ImportError",
        output: "",
        claimed: null,
      },
    };
    const v3 = await answer("instruction_following", broken);
    expect(v3).toMatchObject({ verdict: "violated" });
    expect(v3.rationale).toContain("ImportError");
    const copied = { ...moved, changes: moved.changes.slice(0, 1) };
    expect((await answer("instruction_following", copied)).rationale).toContain("copied, not moved");
  });
});
