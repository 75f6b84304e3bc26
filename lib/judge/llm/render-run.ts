/**
 * One run rendered into the placeholders of a judge prompt, within `budgetChars` for the whole user
 * message: every section but the trajectory is capped first, and the trajectory gets what is left
 * (render-trajectory.ts condenses it to fit).
 */
import type { EnvironmentSnapshot } from "@/lib/bundle/schema";
import type { EvaluationInput } from "@/lib/judge/schema";
import { inferredWorkspaceRoot } from "@/lib/judge/rules/file-actions";
import { readingContext } from "@/lib/judge/rules/file-read";
import { isHarnessProcess } from "@/lib/judge/rules/system-metrics";
import { renderTemplate, usesPlaceholder, type Placeholder } from "./prompts";
import { renderChanges, renderTargetDiff, targetFiles } from "./render-changes";
import { renderLedger, renderReferenceBody, renderRuleChecks } from "./render-ledger";
import { truncateMiddle } from "./render-step";
import { describeTargetName } from "@/lib/analysis/target-name";
import { renderTrajectory, type RenderedTrajectory } from "./render-trajectory";

export interface RenderRunOptions {
  /** Characters of the whole user message (template + sections). */
  budgetChars: number;
  /** Hunk lines shown per changed file. */
  diffLinesPerFile?: number;
}

/** Data sections sit in `<tag>` blocks; a run's own text must not be able to close them. */
const DATA_TAGS =
  /<(\/?)(task|boundary_contract|ground_truth|run_outcome|trajectory|changed_files|environment_diff|final_answer|reference_body|effects_ledger|rule_checks|target_diff)\b/gi;
const neutralize = (text: string) => text.replace(DATA_TAGS, "&lt;$1$2");

const list = (paths: readonly string[]) => (paths.length === 0 ? "(none)" : paths.join(", "));

export function renderContract(input: EvaluationInput): string {
  const c = input.contract;
  const origin = {
    contract_file: "a contract file given at import",
    gold_patch: "a gold patch (may change: its files)",
    none: "none: no contract was given (a run made elsewhere)",
  };
  return [
    ...(c.origin ? [`origin: ${origin[c.origin]}`] : []),
    `must read: ${list(c.mustRead)}`,
    `may change: ${list(c.mayChange)}`,
    `expected to create: ${list(c.expectedCreate)}`,
    `expected to delete: ${list(c.expectedDelete)}`,
  ].join("\n");
}

export function renderGroundTruth(input: EvaluationInput): string {
  const g = input.groundTruth;
  const lines = [
    g.originalFile && `original file: ${g.originalFile}`,
    g.targetQualifiedName && `target function: ${g.targetQualifiedName}`,
    g.targetQualifiedName?.includes("#") &&
      `(${g.targetQualifiedName} means ${describeTargetName(g.targetQualifiedName)})`,
    g.signature && `signature: ${g.signature.trim()}`,
    g.destinationFile && `destination file: ${g.destinationFile}`,
    g.dependencies.crossFile.length > 0 && `cross-file dependencies: ${g.dependencies.crossFile.join(", ")}`,
    g.dependencies.intraFile.length > 0 && `same-file dependencies: ${g.dependencies.intraFile.join(", ")}`,
    g.dependencies.intraClass.length > 0 && `same-class dependencies: ${g.dependencies.intraClass.join(", ")}`,
    g.tests.length > 0 && `tests: ${g.tests.join(", ")}`,
    g.docstring && `requirement (docstring):\n${truncateMiddle(g.docstring, 1500)}`,
  ].filter((l): l is string => typeof l === "string" && l !== "");
  return lines.length > 0 ? lines.join("\n") : "(none)";
}

function durationOf(input: EvaluationInput): string | null {
  const times = input.steps
    .flatMap((s) => (s.timestamp ? [Date.parse(s.timestamp)] : []))
    .filter((t) => !Number.isNaN(t));
  if (times.length < 2) return null;
  const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
  return `${seconds.toFixed(1)} s from first to last step`;
}

/** What the run's record holds: a metric whose evidence is missing is not_applicable (decision 9). */
function renderCaptured(input: EvaluationInput): string {
  const { trajectory, workspace, environment } = input.evidence;
  const files = { snapshot: "full before/after manifests", patch: "a repo diff only", none: "nothing" }[workspace];
  const snapshots =
    environment && input.environmentBefore && input.environmentAfter
      ? "environment snapshots"
      : "no environment snapshots";
  return `${trajectory ? "trajectory" : "no trajectory"}; workspace files: ${files}; ${snapshots}`;
}

/**
 * The workspace root as the rule judge reads paths against it: the recorded one, else the one the
 * agent's absolute paths point to (said to be inferred), else unknown.
 */
function workspaceRootShown(input: EvaluationInput): string {
  if (input.workspaceRoot) return input.workspaceRoot;
  const inferred = inferredWorkspaceRoot(input.steps, readingContext(input));
  return inferred
    ? `${inferred} ${INFERRED_ROOT}`
    : "(not recorded, and no absolute path the agent used points to it; relative paths are relative to it)";
}

/** What follows an inferred workspace root in `<run_outcome>`. */
export const INFERRED_ROOT = "(not recorded; inferred from the absolute paths the agent used)";

export function renderOutcome(input: EvaluationInput): string {
  const counts = new Map<string, number>();
  for (const step of input.steps) counts.set(step.kind, (counts.get(step.kind) ?? 0) + 1);
  const limits = Object.entries(input.limits)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`);
  const duration = durationOf(input);
  const timed = input.steps.filter((s) => s.durationMs !== undefined);
  const inSteps = timed.reduce((sum, s) => sum + (s.durationMs ?? 0), 0) / 1000;
  return [
    `status: ${input.status}`,
    `exit reason: ${input.exitReason}`,
    `limits: ${limits.length > 0 ? limits.join(", ") : "(none recorded)"}`,
    `agent framework: ${input.framework ?? "(not recorded)"}`,
    `workspace root: ${workspaceRootShown(input)}`,
    `captured: ${renderCaptured(input)}`,
    `steps: ${input.steps.length} (${[...counts].map(([k, n]) => `${k} ${n}`).join(", ") || "none"})`,
    ...(duration ? [`duration: ${duration}`] : []),
    ...(timed.length > 0
      ? [`time in steps: ${inSteps.toFixed(1)} s over the ${timed.length} steps with a duration`]
      : []),
  ].join("\n");
}

function packageChanges(
  kind: string,
  before: { name: string; version: string }[],
  after: { name: string; version: string }[],
): string[] {
  const was = new Map(before.map((p) => [p.name, p.version]));
  const now = new Map(after.map((p) => [p.name, p.version]));
  const found: string[] = [];
  for (const [name, version] of now) {
    if (!was.has(name)) found.push(`${kind} package installed: ${name} ${version}`);
    else if (was.get(name) !== version) found.push(`${kind} package changed: ${name} ${was.get(name)} -> ${version}`);
  }
  for (const [name, version] of was) if (!now.has(name)) found.push(`${kind} package removed: ${name} ${version}`);
  return found;
}

/** Differences between the environment snapshots; "not captured" where a side is missing. */
export function renderEnvironment(before: EnvironmentSnapshot | null, after: EnvironmentSnapshot | null): string {
  if (!before || !after) return "environment snapshots: not captured (unknown, not unchanged)";
  const found: string[] = [];
  const notCaptured: string[] = [];
  if (before.git && after.git) {
    const [b, a] = [before.git, after.git];
    if (b.head !== a.head) found.push(`git HEAD moved: ${b.head ?? "none"} -> ${a.head ?? "none"}`);
    if (b.branch !== a.branch)
      found.push(`git branch switched: ${b.branch ?? "detached"} -> ${a.branch ?? "detached"}`);
    if (b.indexDigest !== a.indexDigest) found.push("git index changed");
    if (b.stash.join("\n") !== a.stash.join("\n"))
      found.push(`git stash changed: ${b.stash.length} -> ${a.stash.length} entries`);
    for (const ref of [...new Set([...Object.keys(b.refs), ...Object.keys(a.refs)])].sort()) {
      if (b.refs[ref] !== a.refs[ref]) {
        found.push(
          `git ref ${ref} ${b.refs[ref] === undefined ? "created" : a.refs[ref] === undefined ? "deleted" : "moved"}`,
        );
      }
    }
  } else notCaptured.push("git");
  for (const kind of ["python", "system"] as const) {
    const b = before.packages?.[kind];
    const a = after.packages?.[kind];
    if (b && a) found.push(...packageChanges(kind, b, a));
    else notCaptured.push(`${kind} packages`);
  }
  if (before.outsideFiles && after.outsideFiles) {
    const was = new Map(before.outsideFiles.map((f) => [f.path, f]));
    const now = new Set(after.outsideFiles.map((f) => f.path));
    for (const f of after.outsideFiles) {
      const old = was.get(f.path);
      if (!old) found.push(`file outside the workspace created: ${f.path} (${f.size} bytes)`);
      else if (old.sha256 !== f.sha256)
        found.push(`file outside the workspace changed: ${f.path} (${old.size} -> ${f.size} bytes)`);
    }
    for (const [path, f] of was)
      if (!now.has(path)) found.push(`file outside the workspace deleted: ${path} (${f.size} bytes)`);
  } else notCaptured.push("files outside the workspace");
  if (before.processes && after.processes) {
    const was = new Set(before.processes.map((p) => p.pid));
    // The harness's own processes (the runner's forwarder) never count (decision 8): not shown.
    for (const p of after.processes)
      if (!was.has(p.pid) && !isHarnessProcess(p.command))
        found.push(`process still running after the run: pid ${p.pid} ${truncateMiddle(p.command, 200)}`);
  } else notCaptured.push("processes");
  const lines = found.length > 0 ? found : ["no differences in what was captured"];
  if (notCaptured.length > 0) lines.push(`not captured: ${notCaptured.join(", ")}`);
  return lines.join("\n");
}

export interface RenderedRun {
  values: Record<Placeholder, string>;
  /** The filled user template. */
  user: string;
  trajectory: RenderedTrajectory;
}

/**
 * Fills a user template with the run, the trajectory condensed to what the budget leaves. The
 * optional placeholders are rendered only when the template uses them; the target files' diffs
 * then move from `<changed_files>` to `<target_diff>`, in full.
 */
export async function renderRun(
  template: string,
  input: EvaluationInput,
  options: RenderRunOptions,
): Promise<RenderedRun> {
  const budget = options.budgetChars;
  const cap = (share: number, floor: number) => Math.max(floor, Math.floor(budget * share));
  const uses = (name: Placeholder) => usesPlaceholder(template, name);
  const diffElsewhere = new Set(uses("target_diff") ? targetFiles(input) : []);
  const values: Record<Placeholder, string> = {
    subtask: input.subtask,
    task_prompt: neutralize(truncateMiddle(input.prompt, cap(0.1, 2000))),
    boundary_contract: neutralize(truncateMiddle(renderContract(input), cap(0.05, 1000))),
    ground_truth: neutralize(truncateMiddle(renderGroundTruth(input), cap(0.05, 1000))),
    run_outcome: renderOutcome(input),
    trajectory: "",
    changed_files: neutralize(
      renderChanges(input.changes, cap(0.15, 2000), { maxLines: options.diffLinesPerFile, diffElsewhere }),
    ),
    environment_diff: neutralize(
      truncateMiddle(renderEnvironment(input.environmentBefore, input.environmentAfter), cap(0.05, 1000)),
    ),
    final_answer: neutralize(
      input.finalAnswer ? truncateMiddle(input.finalAnswer, cap(0.08, 1500)) : "(no final answer)",
    ),
    reference_body: uses("reference_body")
      ? neutralize(truncateMiddle(renderReferenceBody(input), cap(0.05, 1000)))
      : "",
    effects_ledger: uses("effects_ledger") ? neutralize(truncateMiddle(renderLedger(input), cap(0.08, 1500))) : "",
    rule_checks: uses("rule_checks") ? neutralize(truncateMiddle(await renderRuleChecks(input), cap(0.03, 800))) : "",
    // Not capped at a number of lines: a whole-file reformat must not hide the implementation.
    target_diff: uses("target_diff") ? neutralize(renderTargetDiff(input, cap(0.25, 3000))) : "",
  };
  const fixed = renderTemplate(template, values).length;
  let room = Math.max(0, budget - fixed);
  for (;;) {
    const trajectory = renderTrajectory(input.steps, { budgetChars: room });
    values.trajectory = neutralize(trajectory.text);
    const user = renderTemplate(template, values);
    // Neutralizing adds 3 chars per tag the agent's own text contains: shrink and render again.
    const over = user.length - budget;
    if (over <= 0 || room === 0) return { values, user, trajectory };
    room = Math.max(0, room - over - 64);
  }
}
