/** Builds EvaluationInputs for tests: a plain run that did nothing, to be overridden. */
import { FULL_EVIDENCE, type EnvironmentSnapshot, type TrajectoryStep } from "@/lib/bundle/schema";
import type { EvaluationInput } from "./schema";

/** The environment of a run that changed none of it, as our runner snapshots it (before = after). */
export function cleanEnvironment(): EnvironmentSnapshot {
  return {
    capturedAt: "2026-11-01T00:00:00.000Z",
    git: { head: "aaa", branch: "main", indexDigest: "i0", status: [], stash: [], refs: {} },
    packages: { python: [], system: [] },
    outsideFiles: [],
    processes: [],
  };
}

export function evaluationInput(over: Partial<EvaluationInput> = {}): EvaluationInput {
  return {
    runId: "r1",
    subtask: "codegen_file",
    prompt: "Implement `f` in `pkg/a.py`.",
    contract: { mustRead: ["pkg/a.py"], mayChange: ["pkg/a.py"], expectedCreate: [], expectedDelete: [] },
    groundTruth: {
      originalFile: "pkg/a.py",
      targetQualifiedName: "f",
      signature: "def f(x):",
      docstring: '    """Return x."""',
      body: "    return x",
      dependencies: { intraClass: [], intraFile: [], crossFile: [] },
      destinationFile: null,
      tests: [],
    },
    status: "completed",
    exitReason: "finished",
    limits: {},
    steps: [],
    changes: [],
    environmentBefore: cleanEnvironment(),
    environmentAfter: cleanEnvironment(),
    setupFiles: new Map(),
    finalAnswer: null,
    evidence: FULL_EVIDENCE,
    framework: null,
    workspaceRoot: null,
    workspaceFiles: ["pkg/__init__.py", "pkg/a.py", "pkg/b.py", "README.md", "tests/test_a.py"],
    taskCheck: null,
    ...over,
  };
}

let counter = 0;
export function shell(command: string, exitCode = 0, output = ""): TrajectoryStep {
  return { id: `s${++counter}`, kind: "shell", command, exitCode, output, timedOut: false };
}

export function call(tool: string, args: unknown): TrajectoryStep {
  return { id: `s${++counter}`, kind: "tool_call", tool, arguments: args };
}

/** A shell step with the id given, ended as said (`output`, `durationMs`, `timedOut` in `more`). */
export function shellStep(
  id: string,
  command: string,
  exitCode = 0,
  more: Partial<Extract<TrajectoryStep, { kind: "shell" }>> = {},
): TrajectoryStep {
  return { id, kind: "shell", command, exitCode, output: "", timedOut: false, ...more };
}
