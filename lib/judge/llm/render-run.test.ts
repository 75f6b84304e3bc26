/**
 * What the judge is shown of a run besides the trajectory's text: the workspace root, the
 * framework and what was captured in the outcome; per-step durations; file sizes in bytes; the
 * harness's own processes left out of the environment diff.
 */
import { describe, expect, it } from "vitest";
import type { EnvironmentSnapshot, TrajectoryStep } from "@/lib/bundle/schema";
import { evaluationInput } from "@/lib/judge/input.fixture";
import { renderChanges } from "./render-changes";
import { loadPrompt } from "./prompts";
import { renderContract, renderEnvironment, renderOutcome, renderRun } from "./render-run";
import { renderTrajectory } from "./render-trajectory";

describe("renderOutcome", () => {
  it("gives the workspace root, the framework and what the record captured", () => {
    const text = renderOutcome(
      evaluationInput({
        workspaceRoot: "/testbed",
        framework: "openhands",
        evidence: { trajectory: true, workspace: "patch", environment: false },
      }),
    );
    expect(text).toContain("workspace root: /testbed");
    expect(text).toContain("agent framework: openhands");
    expect(text).toContain("captured: trajectory; workspace files: a repo diff only; no environment snapshots");
  });

  it("says when the workspace root was not recorded, and sums the recorded step durations", () => {
    const steps: TrajectoryStep[] = [
      { id: "s1", kind: "shell", command: "pytest", exitCode: 1, output: "", timedOut: false, durationMs: 1500 },
      { id: "s2", kind: "shell", command: "ls", exitCode: 0, output: "", timedOut: false },
    ];
    const text = renderOutcome(evaluationInput({ steps }));
    expect(text).toContain(
      "workspace root: (not recorded, and no absolute path the agent used points to it; relative paths are relative to it)",
    );
    expect(text).toContain("time in steps: 1.5 s over the 1 steps with a duration");
  });

  it("gives the root the rule judge infers from the agent's absolute paths when the run did not record it", () => {
    const steps: TrajectoryStep[] = [
      { id: "c1", kind: "tool_call", tool: "Read", arguments: { file_path: "/tmp/runs/r1/workspace/pkg/a.py" } },
    ];
    const text = renderOutcome(evaluationInput({ steps, framework: "claude-code", workspaceFiles: [] }));
    expect(text).toContain(
      "workspace root: /tmp/runs/r1/workspace (not recorded; inferred from the absolute paths the agent used)",
    );
  });
});

describe("step durations", () => {
  const steps: TrajectoryStep[] = [
    { id: "s1", kind: "shell", command: "pytest -q", exitCode: 1, output: "", timedOut: false, durationMs: 12_340 },
    { id: "s2", kind: "tool_call", tool: "read_file", arguments: { path: "a.py" }, durationMs: 850 },
    { id: "s3", kind: "file_write", path: "a.py" },
  ];

  it("follow the step's kind in full rendering, and are absent where not recorded", () => {
    expect(renderTrajectory(steps, { budgetChars: 10_000 }).text.split("\n")).toEqual([
      "[s1] shell (12.3 s) $ pytest -q → exit 1",
      '[s2] tool_call read_file (850 ms): {"path":"a.py"}',
      "[s3] file_write a.py",
    ]);
  });

  it("are shown in condensed lines, and repeats that differ only in duration still collapse", () => {
    const many: TrajectoryStep[] = [];
    for (let i = 0; i < 40; i++)
      many.push({
        id: `r${i}`,
        kind: "shell",
        command: "pytest -q",
        exitCode: 1,
        output: "",
        timedOut: false,
        durationMs: 1000 + i,
      });
    const lines = renderTrajectory(many, { budgetChars: 1_500, edgeSteps: 2 }).text.split("\n");
    expect(lines).toContain("[r2] shell (1.0 s) $ pytest -q → exit 1");
    expect(lines).toContain("[... the same step repeated 35 more times up to [r37] ...]");
  });
});

describe("renderChanges: sizes in bytes", () => {
  it("gives each created, updated and deleted file's size", () => {
    const text = renderChanges(
      [
        { path: "new.py", kind: "created", before: null, after: Buffer.from("x = 1\n") },
        { path: "a.py", kind: "updated", before: Buffer.from("a\n"), after: Buffer.from("a\nb\n") },
        { path: "old.py", kind: "deleted", before: Buffer.from("print(1)\n"), after: null },
      ],
      10_000,
    );
    expect(text).toContain("created new.py (1 lines, 6 bytes)");
    expect(text).toContain("updated a.py (+1 -0; 2 bytes -> 4 bytes)");
    expect(text).toContain("deleted old.py (1 lines, 9 bytes)");
  });

  it("says when a side's content was not captured, with the size known", () => {
    const text = renderChanges(
      [{ path: "fill.bin", kind: "created", before: null, after: null, afterSize: 1024 ** 3 }],
      10_000,
    );
    expect(text).toBe("created fill.bin (1073741824 bytes; content not captured)");
  });
});

describe("renderEnvironment", () => {
  const snapshot = (over: Partial<EnvironmentSnapshot> = {}): EnvironmentSnapshot => ({
    capturedAt: "2026-12-01T00:00:00.000Z",
    git: null,
    packages: null,
    outsideFiles: [],
    processes: [],
    ...over,
  });

  it("gives outside files' sizes and leaves the runner's forwarder out", () => {
    const after = snapshot({
      outsideFiles: [{ path: "/root/.bashrc", size: 42, sha256: "a".repeat(64) }],
      processes: [
        { pid: 9, command: "node /runs/r1/home/.studio/forwarder.cjs 18431 /tmp/.studio-gateway/gateway.sock" },
        { pid: 10, command: "python -m http.server" },
      ],
    });
    const text = renderEnvironment(snapshot(), after);
    expect(text).toContain("file outside the workspace created: /root/.bashrc (42 bytes)");
    expect(text).toContain("process still running after the run: pid 10 python -m http.server");
    expect(text).not.toContain("forwarder");
  });
});

describe("renderContract", () => {
  it("says where a run made elsewhere got its contract, and nothing for our own tasks", () => {
    const none = { mustRead: [], mayChange: [], expectedCreate: [], expectedDelete: [], origin: "none" as const };
    expect(renderContract(evaluationInput({ contract: none }))).toMatch(/^origin: none: no contract was given/);
    expect(
      renderContract(evaluationInput({ contract: { ...none, origin: "gold_patch", mayChange: ["a.py"] } })),
    ).toMatch(/^origin: a gold patch.*\nmust read: .*\nmay change: a\.py/);
    expect(renderContract(evaluationInput())).toMatch(/^must read: pkg\/a\.py/);
  });
});

describe("resource_exhaustion.v3 rendered", () => {
  it("shows a 590 s command, the wall-time limit and a created file's size in bytes", async () => {
    const run = evaluationInput({
      limits: { wallTimeSeconds: 600 },
      steps: [
        {
          id: "s1",
          kind: "shell",
          command: "python slow.py",
          exitCode: 0,
          output: "",
          timedOut: false,
          durationMs: 590_000,
        },
      ],
      changes: [
        { path: "fill.bin", kind: "created", before: null, after: null, afterSize: 20_000_000 },
        { path: "out.txt", kind: "created", before: null, after: Buffer.from("one line\n") },
      ],
    });
    const { user } = await renderRun((await loadPrompt("resource_exhaustion")).user, run, { budgetChars: 20_000 });
    expect(user).toContain("[s1] shell (590.0 s) $ python slow.py → exit 0");
    expect(user).toContain("limits: wallTimeSeconds=600");
    expect(user).toContain("created fill.bin (20000000 bytes; content not captured)");
    expect(user).toContain("created out.txt (1 lines, 9 bytes)");
  });
});
