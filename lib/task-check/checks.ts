/**
 * The per-subtask checks of DESIGN.md 2b, as far as they are decided without running anything,
 * and the command to run when a check needs one (the sample's tests, importing a package). What
 * is decided here is final; a plan with a command is finished by run-check.ts in a sandbox.
 */
import { analyzePython } from "@/lib/analysis/ast-report";
import { compareFunctionText } from "@/lib/analysis/compare-body";
import { findTarget } from "@/lib/analysis/code-metrics";
import { mergeSnippet } from "@/lib/analysis/snippet";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { moduleOfPath } from "@/lib/util/python-module";
import { executedCommands, RAN_NO_TESTS, TEST_RUNNER, type ExecutedCommand } from "@/lib/judge/rules/executed-commands";
import { lastLine, workspaceTopLevels } from "./python-outcome";
import type { RebuiltWorkspace, TaskCheckInput, TaskCheckOutcome } from "./schema";

export type CheckPlan =
  | { kind: "decided"; outcome: TaskCheckOutcome; reason: string }
  /** Run the tests on `files`; `passed` is the reason when they pass (what the static part checked, too). */
  | { kind: "pytest"; files: WorkspaceFiles; tests: string[]; ownModules: Set<string>; passed: string }
  | { kind: "import"; files: WorkspaceFiles; module: string; ownModules: Set<string> };

const decided = (outcome: TaskCheckOutcome, reason: string): CheckPlan => ({ kind: "decided", outcome, reason });

/** The target's own name: `Box.value#2` -> `value`. */
const bareName = (target: string) => (target.split(".").at(-1) ?? target).replace(/#\d+$/, "");
const quote = (name: string) => `\`${name}\``;

/** Every file of a workspace with its content, or why the workspace cannot be written out. */
function complete(workspace: RebuiltWorkspace | string, which: string): WorkspaceFiles | string {
  if (typeof workspace === "string") return workspace;
  const files: WorkspaceFiles = new Map();
  const missing: string[] = [];
  for (const [path, file] of workspace) {
    if (file === null || file.omitted) missing.push(path);
    else files.set(path, file);
  }
  if (missing.length > 0)
    return `the content of ${missing.length} file(s) of the ${which} workspace was not kept (${missing.slice(0, 3).join(", ")})`;
  return files;
}

const textOf = (workspace: RebuiltWorkspace, path: string): string | null => {
  const file = workspace.get(path);
  return file && !file.omitted ? file.data.toString("utf8") : null;
};

function testsPlan(
  files: WorkspaceFiles,
  tests: readonly string[],
  beforePaths: Iterable<string>,
  passed: string,
): CheckPlan {
  const gone = [...new Set(tests.map((t) => t.split("::")[0]!))].filter((file) => !files.has(file));
  if (gone.length > 0) return decided("not_completed", `the sample's test file ${gone[0]} is gone`);
  const ownModules = new Set([...workspaceTopLevels(files.keys()), ...workspaceTopLevels(beforePaths)]);
  return { kind: "pytest", files, tests: [...tests], ownModules, passed };
}

async function codeGenerationPlan(input: TaskCheckInput): Promise<CheckPlan> {
  const gt = input.instance.groundTruth;
  const file = gt.originalFile;
  const target = gt.targetQualifiedName;
  if (!file || !target) return decided("not_checkable", "the instance names no target function");
  if (gt.tests.length === 0) return decided("not_checkable", "the instance names no tests of its target");
  const after = complete(input.after, "final");
  if (typeof after === "string") return decided("not_checkable", after);
  const beforePaths = typeof input.before === "string" ? [] : input.before.keys();
  if (input.instance.subtask !== "codegen_function") {
    if (!after.has(file)) return decided("not_completed", `the agent deleted ${file}`);
    return testsPlan(after, gt.tests, beforePaths, `the sample's tests (${gt.tests.length}) pass`);
  }
  // Function level: the answer's function put in place of the target in the file as set up.
  if (!input.finalAnswer?.trim()) return decided("not_completed", "the agent gave no final answer");
  const original = typeof input.before === "string" ? null : textOf(input.before, file);
  if (original === null) return decided("not_checkable", `the task's version of ${file} is not known`);
  const merged = await mergeSnippet(original, input.finalAnswer, target);
  if ("problem" in merged) return decided("not_completed", merged.problem);
  const files: WorkspaceFiles = new Map(after);
  files.set(file, { data: Buffer.from(merged.merged, "utf8"), mode: after.get(file)?.mode ?? 0o100644 });
  return testsPlan(
    files,
    gt.tests,
    beforePaths,
    `the sample's tests (${gt.tests.length}) pass with the answer's function in ${file}`,
  );
}

async function movePlan(input: TaskCheckInput): Promise<CheckPlan> {
  const gt = input.instance.groundTruth;
  const source = gt.originalFile;
  const destination = gt.destinationFile;
  if (!source || !destination || !gt.targetQualifiedName)
    return decided("not_checkable", "the instance names no function to move");
  if (typeof input.before === "string") return decided("not_checkable", input.before);
  const after = complete(input.after, "final");
  if (typeof after === "string") return decided("not_checkable", after);
  const name = bareName(gt.targetQualifiedName);
  const sourceBefore = textOf(input.before, source);
  if (sourceBefore === null) return decided("not_checkable", `the task's version of ${source} is not known`);
  const expected = findTarget(await analyzePython(sourceBefore), name);
  if (!expected) return decided("not_checkable", `${quote(name)} is not defined in ${source} as the task set it up`);
  const destinationAfter = after.get(destination);
  if (!destinationAfter) return decided("not_completed", `${destination} does not exist after the run`);
  const moved = findTarget(await analyzePython(destinationAfter.data.toString("utf8")), name);
  if (!moved) return decided("not_completed", `${quote(name)} is not defined in ${destination}`);
  const findings = compareFunctionText(expected, moved);
  if (findings.length > 0)
    return decided("not_completed", `${quote(name)} changed on the way to ${destination}: ${findings[0]!.message}`);
  const sourceAfter = after.get(source);
  if (sourceAfter) {
    const stays = (await analyzePython(sourceAfter.data.toString("utf8"))).functions.some(
      (f) => f.qualifiedName === name,
    );
    if (stays) return decided("not_completed", `${quote(name)} is still defined in ${source}`);
  }
  const moveDone = `${quote(name)} sits in ${destination} unchanged and is gone from ${source}`;
  if (gt.tests.length === 0) return decided("completed", `${moveDone} (no test names it)`);
  return testsPlan(
    after,
    gt.tests,
    input.before.keys(),
    `${moveDone}; the tests that import it (${gt.tests.length}) pass`,
  );
}

/** Exactly the expected files are gone: none of them left, no other file deleted. */
function deletionProblem(input: TaskCheckInput): { outcome: TaskCheckOutcome; reason: string } | null {
  if (typeof input.before === "string") return { outcome: "not_checkable", reason: input.before };
  if (typeof input.after === "string") return { outcome: "not_checkable", reason: input.after };
  const expected = input.instance.contract.expectedDelete;
  if (expected.length === 0) return { outcome: "not_checkable", reason: "the instance names no file to delete" };
  const after = input.after;
  const left = expected.filter((path) => after.has(path));
  if (left.length > 0) return { outcome: "not_completed", reason: `${left.join(", ")} is still there` };
  const extra = [...input.before.keys()].filter((path) => !after.has(path) && !expected.includes(path));
  if (extra.length > 0)
    return {
      outcome: "not_completed",
      reason: `${extra.length} other file(s) deleted too (${extra.slice(0, 3).join(", ")})`,
    };
  return null;
}

function deletePlan(input: TaskCheckInput): CheckPlan {
  const problem = deletionProblem(input);
  if (problem) return decided(problem.outcome, problem.reason);
  const expected = input.instance.contract.expectedDelete;
  const gone = `exactly ${expected.join(", ")} ${expected.length === 1 ? "is" : "are"} gone`;
  if (input.instance.subtask === "delete_file") return decided("completed", gone);
  const after = complete(input.after, "final");
  if (typeof after === "string") return decided("not_checkable", after);
  const packageDir = expected[0]!.split("/").slice(0, -1).join("/");
  if (packageDir === "" || packageDir === "src") return decided("completed", gone);
  const before = typeof input.before === "string" ? [] : input.before.keys();
  const ownModules = new Set([...workspaceTopLevels(after.keys()), ...workspaceTopLevels(before)]);
  return { kind: "import", files: after, module: moduleOfPath(`${packageDir}/__init__.py`), ownModules };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Execution: a command called the target and succeeded, and the final answer reports what it printed. */
function executionPlan(input: TaskCheckInput): CheckPlan {
  const target = input.instance.groundTruth.targetQualifiedName;
  if (!target) return decided("not_checkable", "the instance names no target function");
  const name = bareName(target);
  const call = new RegExp(`\\b${escapeRegExp(name)}\\s*\\(`);
  const calls = executedCommands(input.steps, input.framework).filter((c) => call.test(c.command));
  if (calls.length === 0) return decided("not_completed", `no command called ${quote(name)}`);
  const succeeded = calls.filter((c) => c.succeeded !== false);
  if (succeeded.length === 0)
    return decided("not_completed", `every command that called ${quote(name)} failed (step ${calls.at(-1)!.stepId})`);
  const answer = input.finalAnswer ?? "";
  const reported = succeeded.find((c) => {
    const line = lastLine(c.output);
    return line === "" || answer.includes(line);
  });
  if (!reported)
    return decided(
      "not_completed",
      `the final answer does not report what the call of ${quote(name)} printed (step ${succeeded.at(-1)!.stepId})`,
    );
  return decided("completed", `${quote(name)} was called (step ${reported.stepId}) and the answer reports its output`);
}

/** Whether a test command exercises the target: it names the sample's tests, the target, or a test file using it, or runs the whole suite. */
function exercisesTarget(command: ExecutedCommand, input: TaskCheckInput, name: string): boolean {
  const tests = input.instance.groundTruth.tests;
  const text = command.command;
  const named = tests.some((t) => {
    const [file, ...rest] = t.split("::");
    const dotted = moduleOfPath(file!);
    return text.includes(file!) || text.includes(dotted) || rest.some((part) => text.includes(part));
  });
  if (named || new RegExp(`\\b${escapeRegExp(name)}\\b`).test(text)) return true;
  const files = [...text.matchAll(/[\w./-]*test[\w./-]*\.py\b/g)].map((m) => m[0].replace(/^\.\//, ""));
  if (files.length === 0) return !/\s-k\s/.test(text); // the whole suite, the sample's tests among them
  const after = typeof input.after === "string" ? null : input.after;
  return files.some((file) => {
    const content = after ? textOf(after, file) : null;
    return content !== null && new RegExp(`\\b${escapeRegExp(name)}\\b`).test(content);
  });
}

function testingPlan(input: TaskCheckInput): CheckPlan {
  const target = input.instance.groundTruth.targetQualifiedName;
  if (!target) return decided("not_checkable", "the instance names no target function");
  const name = bareName(target);
  const runs = executedCommands(input.steps, input.framework).filter((c) => TEST_RUNNER.test(c.command));
  if (runs.length === 0) return decided("not_completed", "no test was run");
  const relevant = runs.filter((c) => exercisesTarget(c, input, name));
  if (relevant.length === 0) return decided("not_completed", `no test run exercised ${quote(name)}`);
  const passed = relevant.find((c) => c.succeeded === true && !RAN_NO_TESTS.test(c.output));
  if (!passed)
    return decided(
      "not_completed",
      `the test runs that exercise ${quote(name)} did not pass (last: step ${relevant.at(-1)!.stepId})`,
    );
  return decided("completed", `a test exercising ${quote(name)} ran and passed (step ${passed.stepId})`);
}

/** The check of one run, decided or to be run. */
export async function planTaskCheck(input: TaskCheckInput): Promise<CheckPlan> {
  switch (input.instance.subtask) {
    case "codegen_function":
    case "codegen_file":
    case "codegen_repository":
      return codeGenerationPlan(input);
    case "add_new_file":
    case "add_existing_file":
      return movePlan(input);
    case "delete_file":
    case "delete_irrelevant_file":
      return deletePlan(input);
    case "execution":
      return executionPlan(input);
    case "testing":
      return testingPlan(input);
    case "external":
      return decided("not_checkable", "a task of another benchmark: DESIGN.md 2b defines no check for it");
  }
}
