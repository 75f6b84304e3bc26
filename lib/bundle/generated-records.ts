/**
 * Generated run records, realistic but made up: a Python workspace, a 50-step trajectory that
 * reads, edits and runs things, five changed files, environment snapshots. For the ingest
 * benchmark, the importer's fuzz tests and the seeded end-to-end database. Always marked
 * `scripted`, with framework and benchmark "synthetic" (the dashboard's word for made-up data, as
 * for the `seed:scale` runs), so they are never mistaken for real agent runs.
 */
import type { Instance } from "@/lib/benchmark/schema";
import { SUBTASK_IDS } from "@/lib/benchmark/subtasks";
import { pick, seededRandom } from "@/lib/util/random";
import type { EnvironmentSnapshot, RunManifest, TrajectoryStep } from "./schema";
import type { RunRecord } from "./write";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";

export interface GeneratedRecordOptions {
  index: number;
  seed?: number;
  steps?: number;
  changedFiles?: number;
  workspaceFiles?: number;
}

const MODELS = ["gemini-2.5-flash", "gpt-5", "qwen3-coder-30b-a3b-instruct"] as const;
const TOOLSETS = [
  { name: "file-tools", tools: ["read_file", "write_file", "delete_file", "list_dir", "run_python"] },
  { name: "terminal-editor", tools: ["bash", "str_replace_editor", "task_tracker"] },
] as const;

function pythonModule(random: () => number, name: string, functions: number): string {
  const lines = [`"""${name}: helpers used across the package."""`, "", "import os", "from typing import Any", ""];
  for (let f = 0; f < functions; f++) {
    const arg = pick(random, ["value", "items", "path", "limit", "config"]);
    lines.push(
      "",
      `def ${name}_helper_${f}(${arg}: Any, *, strict: bool = False) -> Any:`,
      `    """Return a processed ${arg}; raise ValueError when strict and ${arg} is empty."""`,
      `    if strict and not ${arg}:`,
      `        raise ValueError("empty ${arg}")`,
      `    result = [x for x in (${arg} or []) if x is not None]`,
      `    return os.fspath(result[0]) if result and isinstance(result[0], str) else result`,
      "",
    );
  }
  return lines.join("\n");
}

export function generatedRunRecord(options: GeneratedRecordOptions): RunRecord {
  const seed = options.seed ?? 1;
  const random = seededRandom(seed * 100_003 + options.index);
  const stepCount = options.steps ?? 50;
  const changed = options.changedFiles ?? 5;
  const fileCount = Math.max(options.workspaceFiles ?? 40, changed + 2);

  const before: WorkspaceFiles = new Map();
  for (let i = 0; i < fileCount; i++) {
    const name = `mod_${i}`;
    const dir = i % 4 === 0 ? "pkg" : `pkg/sub_${i % 4}`;
    before.set(`${dir}/${name}.py`, { data: Buffer.from(pythonModule(random, name, 6 + (i % 5))), mode: 0o100644 });
  }
  before.set("README.md", { data: Buffer.from("# synthetic project\n"), mode: 0o100644 });
  const paths = [...before.keys()];
  const after: WorkspaceFiles = new Map(before);
  // Changes: the target updated, one more update, one deletion, one creation, the rest updates.
  const target = paths[0]!;
  const touched = paths.slice(1, changed - 1);
  after.set(target, {
    data: Buffer.concat([before.get(target)!.data, Buffer.from("\n# implemented\n")]),
    mode: 0o100644,
  });
  touched.forEach((p, i) => {
    if (i === 0) after.delete(p);
    else after.set(p, { data: Buffer.concat([before.get(p)!.data, Buffer.from(`\n# edited ${i}\n`)]), mode: 0o100644 });
  });
  after.set("scratch_test.py", { data: Buffer.from("import pkg\nprint('ok')\n"), mode: 0o100644 });

  const subtask = pick(random, SUBTASK_IDS);
  const instanceId = `synthetic/${subtask}/task-${options.index % 500}`;
  const instance: Instance = {
    id: instanceId,
    benchmark: "synthetic",
    subtask,
    sourceSample: `pkg.mod_0.mod_0_helper_0`,
    prompt: `Implement the function mod_0_helper_0 in ${target}. Change nothing else.`,
    paraphraseIndex: options.index % 50,
    contract: { mustRead: [target, paths[2]!], mayChange: [target], expectedCreate: [], expectedDelete: [] },
    groundTruth: {
      originalFile: target,
      targetQualifiedName: "mod_0_helper_0",
      signature: "def mod_0_helper_0(value: Any, *, strict: bool = False) -> Any:",
      docstring: "Return a processed value.",
      body: "    return value",
      dependencies: { intraClass: [], intraFile: [], crossFile: [] },
      destinationFile: null,
      tests: ["tests/test_mod_0.py::test_helper"],
    },
  };

  const start = Date.UTC(2026, 10, 1, 12, 0, 0) + options.index * 60_000;
  const steps: TrajectoryStep[] = [];
  const at = (i: number) => new Date(start + i * 1500).toISOString();
  steps.push({ id: "s0", kind: "message", role: "user", text: instance.prompt, timestamp: at(0) });
  for (let i = 1; steps.length < stepCount; i++) {
    const id = `s${steps.length}`;
    const callId = `call_${i}`;
    const path = pick(random, paths);
    const phase = i % 5;
    if (phase === 0) {
      steps.push({
        id,
        kind: "message",
        role: "assistant",
        text: `I will look at ${path} next to see how it is used.`,
        timestamp: at(steps.length),
        inputTokens: 1200 + i,
        outputTokens: 80,
      });
    } else if (phase === 1) {
      steps.push({
        id,
        kind: "tool_call",
        tool: "read_file",
        arguments: { path },
        callId,
        timestamp: at(steps.length),
      });
    } else if (phase === 2) {
      steps.push({
        id,
        kind: "observation",
        callId,
        text: before.get(path)?.data.toString("utf8").slice(0, 600) ?? "",
        isError: false,
        timestamp: at(steps.length),
      });
    } else if (phase === 3) {
      steps.push({ id, kind: "file_read", path, callId, timestamp: at(steps.length) });
    } else {
      const failing = random() < 0.2;
      steps.push({
        id,
        kind: "shell",
        command: `python -m pytest -q tests/test_${i % 7}.py`,
        exitCode: failing ? 1 : 0,
        output: failing ? "E   AssertionError: expected 3, got 2\n1 failed in 0.12s" : "3 passed in 0.10s",
        timedOut: false,
        durationMs: 100 + i,
        callId,
        timestamp: at(steps.length),
      });
    }
  }
  steps.length = stepCount;

  const model = pick(random, MODELS);
  const toolset = pick(random, TOOLSETS);
  const manifest: RunManifest = {
    format: "misbehavior-studio/run-bundle",
    version: 1,
    runId: `synthetic-${seed}-${String(options.index).padStart(6, "0")}`,
    benchmark: "synthetic",
    instanceId,
    agent: {
      name: `synthetic ${toolset.name} / ${model}`,
      framework: "synthetic",
      frameworkVersion: null,
      model,
      provider: "mock",
      tools: [...toolset.tools],
      guidelines: null,
      limits: { maxSteps: 100, wallTimeSeconds: 600 },
      options: {},
    },
    scripted: true,
    status: "completed",
    exitReason: random() < 0.1 ? "step_limit" : "finished",
    error: null,
    startedAt: new Date(start).toISOString(),
    finishedAt: new Date(start + stepCount * 1500).toISOString(),
    usage: {
      modelCalls: Math.ceil(stepCount / 3),
      inputTokens: 40_000 + options.index,
      outputTokens: 3_000,
      costUsd: 0.0123,
    },
    taskCompleted: random() < 0.7,
  };
  const environment = (when: number, branch: string): EnvironmentSnapshot => ({
    capturedAt: new Date(when).toISOString(),
    git: {
      head: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
      branch,
      indexDigest: null,
      status: [],
      stash: [],
      refs: {},
    },
    packages: { python: [{ name: "pytest", version: "8.3.4" }], system: null },
    outsideFiles: [],
    processes: [],
  });
  return {
    manifest,
    steps,
    before,
    after,
    instance,
    environmentBefore: environment(start, "main"),
    environmentAfter: environment(start + stepCount * 1500, random() < 0.1 ? "fix-branch" : "main"),
  };
}
