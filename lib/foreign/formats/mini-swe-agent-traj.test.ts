import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import type { ForeignFile, ForeignRun } from "../types";
import { MAX_DOCUMENT_BYTES } from "./json-lines";
import { exitReasonOf, miniSweAgentTraj } from "./mini-swe-agent-traj";
import { fileAt, fixtureFile, patchFiles, readError, readOnlyRun, textFile } from "./reader.fixture";

const onlyRun = (file: ForeignFile): ForeignRun => readOnlyRun(miniSweAgentTraj, file);
const errorOf = (name: string, text: string): string => readError(miniSweAgentTraj, textFile(name, text));

describe("mini-swe-agent trajectory", () => {
  const trimmed = fixtureFile("mini-swe-agent-traj/django__django-16255.traj.json");

  it("makes each ```bash action a shell step with the exit code of the next message; a format error stays a message", () => {
    const run = onlyRun(trimmed);
    const shells = run.steps.filter((s) => s.kind === "shell");
    expect(shells).toMatchObject([
      {
        command: "cd django/contrib/sitemaps && cat __init__.py | head -5",
        exitCode: 0,
        output: "import warnings\nfrom urllib.parse import urlencode",
      },
      { command: "python tests/runtests.py sitemaps_tests", exitCode: 1, output: "FAILED (errors=1)" },
      { command: "sleep 120", exitCode: null, timedOut: true },
      {
        command: "sed -i 's/except TypeError:/except (TypeError, ValueError):/' django/contrib/sitemaps/__init__.py",
        exitCode: 0,
      },
      { command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached", exitCode: null },
    ]);
    expect(run.steps.map((s) => s.kind)).toEqual([
      "message",
      "message",
      "message",
      "shell",
      "message", // two bash blocks: no action
      "message", // the format error it got back
      "message",
      "shell",
      "message",
      "shell",
      "message",
      "shell",
      "message",
      "shell",
    ]);
    expect(run.steps[2]).toMatchObject({
      role: "assistant",
      timestamp: "2025-11-18T23:52:40.000Z",
      inputTokens: 1779,
      outputTokens: 226,
    });
  });

  it("takes the task, model, version, workspace, patch and usage from info", () => {
    const run = onlyRun(trimmed);
    expect(run).toMatchObject({
      formatVersion: "mini-swe-agent-1",
      task: { benchmark: "swe-bench", instanceId: "django__django-16255" },
      agent: {
        framework: "mini-swe-agent",
        frameworkVersion: "1.15.0",
        model: "google/gemini-3-pro-preview",
        provider: "google",
      },
      workspaceRoot: "/testbed",
      exitReason: "finished",
      status: "completed",
      usage: { modelCalls: 6, inputTokens: 12779, outputTokens: 415, costUsd: 0.0123 },
    });
    expect(patchFiles(run)).toEqual(["django/contrib/sitemaps/__init__.py"]);
    expect(run.task.prompt).toContain("Sitemaps without items");
  });

  it("says how the run stopped from info.exit_status", () => {
    expect(["Submitted", "LimitsExceeded", "TimeoutExpired", "RuntimeError"].map(exitReasonOf)).toEqual([
      "finished",
      "step_limit",
      "timeout",
      "error",
    ]);
  });

  it("detects a trajectory by its format field or mini_version, not a preds.json", () => {
    expect(miniSweAgentTraj.detect(trimmed)).toBe(true);
    expect(
      miniSweAgentTraj.detect(textFile("a.json", '{"messages": [], "trajectory_format": "mini-swe-agent-1"}')),
    ).toBe(true);
    expect(miniSweAgentTraj.detect(fixtureFile("mini-swe-agent-preds/preds.json"))).toBe(false);
  });

  it("refuses bad input naming the file and where", () => {
    expect(errorOf("t.traj.json", trimmed.data.subarray(0, 900).toString())).toMatch(
      /^ForeignFormatError: t\.traj\.json \(line \d+\): is not valid JSON/,
    );
    expect(errorOf("w.traj.json", '{"messages": [{"role": 3, "content": "x"}]}')).toMatch(
      /^ForeignFormatError: w\.traj\.json \(messages\[0\]\.role\)/,
    );
    expect(errorOf("e.traj.json", " ")).toBe("ForeignFormatError: e.traj.json: is empty");
    const huge = { name: "huge.traj.json", data: Buffer.allocUnsafe(MAX_DOCUMENT_BYTES + 1) };
    expect(readError(miniSweAgentTraj, huge)).toMatch(/^ForeignFormatError: huge\.traj\.json: is \d+ bytes, over/);
  });
});

describeWithTestData(
  "mini-swe-agent SWE-bench Verified run (public)",
  "fixtures/trajectories/mini-swe-agent/django__django-16255.traj.json",
  (file) => {
    it("reads 17 shell steps, all with exit codes but the submission, and the patch", () => {
      const run = onlyRun(fileAt(file));
      const shells = run.steps.flatMap((s) => (s.kind === "shell" ? [s] : []));
      expect(run.steps).toHaveLength(36);
      expect(shells).toHaveLength(17);
      expect(shells[0]).toMatchObject({ command: "ls -R django/contrib/sitemaps", exitCode: 0 });
      expect(shells.filter((s) => s.exitCode === null).map((s) => s.command)).toEqual([
        "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached",
      ]);
      expect(patchFiles(run)).toEqual(["django/contrib/sitemaps/__init__.py"]);
      expect(run).toMatchObject({
        task: { benchmark: "swe-bench", instanceId: "django__django-16255" },
        agent: { model: "google/gemini-3-pro-preview", frameworkVersion: "1.15.0" },
        workspaceRoot: "/testbed",
        usage: { modelCalls: 17, inputTokens: 61068, outputTokens: 2317 },
      });
    });
  },
);
