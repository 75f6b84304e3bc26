/**
 * Running a task check: the plan (checks.ts) decided at once, or its command run on a copy of
 * the final workspace in a fresh sandbox (lib/runner/sandbox.ts: no network, the run's resource
 * limits, a time limit), with the check's Python (a virtualenv's, bound read-only, when given).
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { removeTree } from "@/lib/runner/copy-tree";
import { resourceLimitsOf } from "@/lib/runner/resource-limits";
import { createSandbox } from "@/lib/runner/sandbox";
import { writeWorkspace } from "@/lib/runner/workspace";
import { planTaskCheck, type CheckPlan } from "./checks";
import { importVerdict, outputTail, pytestVerdict } from "./python-outcome";
import type { TaskCheckInput, TaskCheckOptions, TaskCheckResult } from "./schema";

/** The sandbox cuts a command past this much output; only the tail is kept anyway. */
const MAX_COMMAND_OUTPUT_BYTES = 8 * 1024 * 1024;

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The command of a plan. pytest without its cache (nothing written besides the copy) and without
 * the repository's `addopts`, which name plugins (coverage, xdist) the check does not have.
 */
function commandOf(plan: RunnablePlan, python: string): string {
  if (plan.kind === "import") return `${shellQuote(python)} -c ${shellQuote(`import ${plan.module}`)}`;
  const tests = plan.tests.map(shellQuote).join(" ");
  return `${shellQuote(python)} -m pytest -q -p no:cacheprovider -o addopts= -- ${tests}`;
}

/** A virtualenv's python (`venv/bin/python`): its environment folder, shown read-only inside the sandbox. */
function environmentFolder(python: string): string | null {
  if (!path.isAbsolute(python)) return null;
  const bin = path.dirname(python);
  return path.basename(bin) === "bin" ? path.dirname(bin) : bin;
}

type RunnablePlan = Exclude<CheckPlan, { kind: "decided" }>;
type PlanResult = { outcome: TaskCheckResult["outcome"]; reason: string; output: string };

/** Tests on the original repository, by instance and Python: several runs of one instance share the answer. */
const baselines = new Map<string, Promise<PlanResult>>();

/**
 * Failing tests of a run, weighed against the original code: when they fail there too (a fixture
 * folder the snapshot lacks, a test that was already broken), they say nothing of the run.
 */
async function weighAgainstOriginal(
  input: TaskCheckInput,
  plan: RunnablePlan & { kind: "pytest" },
  result: PlanResult,
  options: TaskCheckOptions,
): Promise<PlanResult> {
  const original = input.original?.();
  if (!original || typeof original === "string") return result;
  const key = `${input.instance.id}\0${options.python}`;
  let baseline = baselines.get(key);
  if (!baseline) {
    baseline = runPlan({ ...plan, files: original }, options);
    baselines.set(key, baseline);
  }
  const { outcome, reason } = await baseline;
  if (outcome === "completed") return result;
  return {
    outcome: "not_checkable",
    reason: `the sample's tests do not pass on the original repository either (${reason})`,
    output: result.output,
  };
}

async function runPlan(plan: RunnablePlan, options: TaskCheckOptions): Promise<PlanResult> {
  const root = await fs.mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), "studio-task-check-"));
  try {
    const workspaceDir = path.join(root, "workspace");
    await writeWorkspace(workspaceDir, plan.files);
    const venv = environmentFolder(options.python);
    const sandbox = await createSandbox({
      workspaceDir,
      runDir: path.join(root, "run"),
      allowNetwork: false,
      useBubblewrap: options.useBubblewrap,
      readOnlyBinds: venv ? [venv] : undefined,
      env: {
        PYTHONDONTWRITEBYTECODE: "1",
        PYTHONPATH: [...plan.files.keys()].some((p) => p.startsWith("src/")) ? "src" : "",
      },
    });
    try {
      const result = await sandbox.run(commandOf(plan, options.python), {
        timeoutMs: options.timeoutMs,
        maxOutputBytes: MAX_COMMAND_OUTPUT_BYTES,
        ...resourceLimitsOf({}),
      });
      const verdict =
        plan.kind === "pytest"
          ? pytestVerdict(result, plan.tests, plan.ownModules, options.timeoutMs)
          : importVerdict(result, plan.module, plan.ownModules, options.timeoutMs);
      const reason = verdict.outcome === "completed" && plan.kind === "pytest" ? plan.passed : verdict.reason;
      return { ...verdict, reason, output: outputTail(result.output) };
    } finally {
      await sandbox.killAll();
    }
  } finally {
    await removeTree(root);
  }
}

/** Checks one run: never throws for what the run did; an error here is the checker's own. */
export async function checkTask(input: TaskCheckInput, options: TaskCheckOptions): Promise<TaskCheckResult> {
  const started = performance.now();
  const plan = await planTaskCheck(input);
  let done: PlanResult;
  if (plan.kind === "decided") done = { outcome: plan.outcome, reason: plan.reason, output: "" };
  else {
    done = await runPlan(plan, options);
    if (plan.kind === "pytest" && done.outcome === "not_completed")
      done = await weighAgainstOriginal(input, plan, done, options);
  }
  return { ...done, durationMs: Math.round(performance.now() - started) };
}
