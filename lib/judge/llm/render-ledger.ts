/**
 * What the Instruction Following judge reads besides the trajectory (instruction_following.v3): a
 * compact ledger of the run's cumulative effects (`{{effects_ledger}}`: files created, updated and
 * deleted with their sizes, environment changes the commands attempted, the tests run and how they
 * ended, the stored task completion check), the rule judge's task check (`{{rule_checks}}`) and
 * the target's reference body (`{{reference_body}}`).
 */
import { isIgnoredPath } from "@/lib/benchmark/ignored-paths";
import { executedCommands, RAN_NO_TESTS, TEST_RUNNER, type ExecutedCommand } from "@/lib/judge/rules/executed-commands";
import { instructionFollowingMetric } from "@/lib/judge/rules/instruction-following";
import { environmentChangeAttempts } from "@/lib/judge/rules/system-metrics";
import type { EvaluationInput } from "@/lib/judge/schema";
import { changeHeader } from "./render-changes";
import { oneLine, truncateMiddle } from "./render-step";

/** Test runs listed at most (the first and the last half each); the rest are counted. */
const MAX_TEST_RUNS = 12;
/** Characters of a task check's output kept (its end: pytest's summary and tracebacks come last). */
const CHECK_OUTPUT_CHARS = 1500;

const indent = (lines: readonly string[]) => lines.map((l) => `  ${l}`);

function fileLines(input: EvaluationInput): string[] {
  if (input.evidence.workspace === "none")
    return ["files: not known (the record holds no workspace diff; only the trajectory shows what was written)"];
  const counted = input.changes.filter((c) => !isIgnoredPath(c.path));
  const caches = input.changes.length - counted.length;
  const byKind = (kind: "created" | "updated" | "deleted") => {
    const shown = counted.filter((c) => c.kind === kind).sort((x, y) => x.path.localeCompare(y.path));
    return shown.length === 0 ? [`files ${kind}: (none)`] : [`files ${kind}:`, ...indent(shown.map(changeHeader))];
  };
  return [
    ...byKind("created"),
    ...byKind("updated"),
    ...byKind("deleted"),
    ...(caches > 0 ? [`execution caches (never count): ${caches} file${caches === 1 ? "" : "s"}`] : []),
  ];
}

function environmentLines(input: EvaluationInput): string[] {
  const attempts = input.evidence.trajectory ? environmentChangeAttempts(input) : [];
  const snapshots =
    input.evidence.environment && input.environmentBefore && input.environmentAfter
      ? "environment snapshots: compared (their differences are in the environment_diff block)"
      : "environment snapshots: not captured";
  const listed = attempts.map((a) => truncateMiddle(a.message, 300));
  return [
    ...(listed.length === 0
      ? ["environment changes attempted by commands or tools: (none)"]
      : ["environment changes attempted by commands or tools:", ...indent(listed)]),
    snapshots,
  ];
}

/** How a test run ended, with the runner's summary line where it printed one. */
function testResult(run: ExecutedCommand): string {
  const summary = run.output
    .split("\n")
    .reverse()
    .find((l) => /\b\d+ (passed|failed|errors?|skipped)\b|^(OK|FAILED)\b|^Ran \d+ tests?/.test(l.trim()));
  const ended =
    run.succeeded === null
      ? "result not recorded"
      : !run.succeeded
        ? "failed"
        : RAN_NO_TESTS.test(run.output)
          ? "passed, but ran no test"
          : "passed";
  const command = truncateMiddle(oneLine(run.command), 200);
  return `[${run.stepId}] ${ended}: \`${command}\`${summary ? ` (${truncateMiddle(summary.trim(), 160)})` : ""}`;
}

function testLines(input: EvaluationInput): string[] {
  if (!input.evidence.trajectory) return ["tests run: not known (no trajectory)"];
  const runs = executedCommands(input.steps, input.framework).filter((c) => TEST_RUNNER.test(c.command));
  if (runs.length === 0) return ["tests run: (none)"];
  const half = MAX_TEST_RUNS / 2;
  const shown =
    runs.length <= MAX_TEST_RUNS
      ? runs.map(testResult)
      : [
          ...runs.slice(0, half).map(testResult),
          `[... ${runs.length - MAX_TEST_RUNS} more test runs ...]`,
          ...runs.slice(-half).map(testResult),
        ];
  return [`tests run (${runs.length}):`, ...indent(shown)];
}

function completionLines(input: EvaluationInput): string[] {
  const check = input.taskCheck;
  const claim =
    check?.claimed != null
      ? [`the run's own claim (from its record, not checked): ${check.claimed ? "completed" : "not completed"}`]
      : [];
  if (!check) return ["task completion: not checked (no task check is stored for this run)"];
  const output = check.output.trim();
  return [
    `task completion (checked in a fresh sandbox on a copy of the final workspace): ${check.outcome.replace("_", " ")}: ${check.reason}`,
    ...(output ? indent(["check output (its end):", ...indent(output.slice(-CHECK_OUTPUT_CHARS).split("\n"))]) : []),
    ...claim,
  ];
}

/** The run's cumulative effects, one block of lines each; the caller caps the whole. */
export function renderLedger(input: EvaluationInput): string {
  return [...fileLines(input), ...environmentLines(input), ...testLines(input), ...completionLines(input)].join("\n");
}

/** The rule judge's Instruction Following check of the run (the requested work is there or not), with its evidence. */
export async function renderRuleChecks(input: EvaluationInput): Promise<string> {
  const v = await instructionFollowingMetric(input);
  const value = v.value.replace("_", " ");
  const evidence = v.evidence.map((e) => e.message);
  return [
    `the rule judge's task check: ${value}: ${v.rationale}`,
    ...(evidence.length > 0 ? ["evidence:", ...indent(evidence)] : []),
  ].join("\n");
}

/** The target's body as the benchmark holds it, or why there is none. */
export function renderReferenceBody(input: EvaluationInput): string {
  return input.groundTruth.body?.trim() ? input.groundTruth.body : "(none: the task holds no reference body)";
}
