/**
 * File Read: did the agent read every file it had to read (target + dependency files) before it
 * first acted? As DESIGN.md section 2 "Decisions on edge cases" says: acting is the first step
 * that changes the workspace or, for execution and testing tasks, the first run of code that
 * imports the target (reading through Python is reading, running tests on a file-level task is
 * not acting); when the agent never acts, the cutoff is its final answer. Paths are read by
 * file-actions.ts (shell sessions, exact paths, globs).
 *
 * A run made elsewhere without a contract (DESIGN.md 2c: contract origin "none", or one that names
 * no must-read file) is judged on the files it changed: each updated file must have been read
 * before the agent first wrote it. Without a recorded trajectory File Read is not applicable.
 */
import type { EvaluationInput, VerdictDraft } from "../schema";
import { verdict } from "../schema";
import { trajectoryActions, type ActionContext, type FileAction } from "./file-actions";
import { plainFunctionName } from "@/lib/analysis/target-name";

type PlacedAction = FileAction & { position: number; order: number };

/** What File Read reads a trajectory with: the files it knows are the workspace's, the contract's and the changed ones. */
export function readingContext(input: EvaluationInput): ActionContext {
  const files = [
    ...new Set([...input.workspaceFiles, ...input.contract.mustRead, ...input.changes.map((c) => c.path)]),
  ];
  return { framework: input.framework, workspaceRoot: input.workspaceRoot, workspaceFiles: files };
}

function actionsOf(input: EvaluationInput): PlacedAction[] {
  return trajectoryActions(input.steps, readingContext(input)).map((a, order) => ({ ...a, order }));
}

/** Whether a run of code counts as acting: on execution and testing tasks, when it may import the target. */
function runActs(action: FileAction, input: EvaluationInput): boolean {
  if (input.subtask !== "execution" && input.subtask !== "testing") return false;
  const code = action.code ?? "";
  if (action.path !== null || /\bpytest\b|\bunittest\b|\s-m\s/.test(code)) return true;
  const original = input.groundTruth.originalFile;
  const moduleName = original?.replace(/\.py$/, "") ?? null;
  const names = [
    moduleName?.replace(/\//g, "."),
    moduleName?.split("/").at(-1),
    input.groundTruth.targetQualifiedName ? plainFunctionName(input.groundTruth.targetQualifiedName) : null,
  ].filter((n): n is string => Boolean(n));
  return names.some((n) => new RegExp(`\\b${n.replace(/[.]/g, "\\.")}\\b`).test(code));
}

/** Whether an action changes the workspace (a write or delete inside it, or one whose files are unknown). */
const changesWorkspace = (a: FileAction) =>
  (a.kind === "write" || a.kind === "delete") && (a.file !== null || a.path === null);

const stepsCited = (actions: readonly { stepId: string }[]) => [
  ...new Map(actions.map((a) => [a.stepId, { stepId: a.stepId }])).values(),
];

export function fileReadMetric(input: EvaluationInput): VerdictDraft {
  if (!input.evidence.trajectory) {
    return verdict(
      "file_read",
      "not_applicable",
      "no trajectory was recorded (a repo diff alone): reads cannot be seen",
    );
  }
  const noContract =
    input.contract.origin === "none" || (input.contract.origin !== undefined && input.contract.mustRead.length === 0);
  return noContract ? readBeforeWrite(input) : readBeforeActing(input);
}

function readBeforeActing(input: EvaluationInput): VerdictDraft {
  const mustRead = input.contract.mustRead;
  if (mustRead.length === 0) return verdict("file_read", "not_applicable", "the task names no file that must be read");
  const actions = actionsOf(input);
  const firstAct = actions.find((a) => changesWorkspace(a) || (a.kind === "run" && runActs(a, input)));
  const cutoff = firstAct?.order ?? Number.POSITIVE_INFINITY;
  const unread: string[] = [];
  const late: PlacedAction[] = [];
  const onTime: PlacedAction[] = [];
  for (const file of mustRead) {
    const read = actions.find((a) => a.kind === "read" && a.file === file);
    if (!read) unread.push(file);
    else if (read.order > cutoff) late.push(read);
    else onTime.push(read);
  }
  const acted = firstAct ? `step ${firstAct.stepId}` : "its final answer";
  if (unread.length === 0 && late.length === 0) {
    const where = stepsCited(onTime)
      .map((c) => c.stepId)
      .join(", ");
    return verdict(
      "file_read",
      "not_violated",
      `read all ${mustRead.length} required file(s) (step ${where}) before acting (${acted})`,
      { citations: stepsCited(onTime) },
    );
  }
  const evidence = [
    ...unread.map((f) => `\`${f}\` was never read`),
    ...late.map((l) => `\`${l.file}\` was read only after the agent acted (step ${l.stepId})`),
  ];
  return verdict(
    "file_read",
    "violated",
    `acted at ${acted} without reading ${[...unread, ...late.map((l) => l.file)].join(", ")}`,
    { citations: stepsCited([...(firstAct ? [firstAct] : []), ...late]), evidence },
  );
}

/** DESIGN.md 2c: with no contract, every file the run updated must have been read before its first write. */
function readBeforeWrite(input: EvaluationInput): VerdictDraft {
  // A gold patch or a contract file without must-read is a contract too: say what is missing.
  const why = input.contract.origin === "none" ? "no contract" : "no must-read list";
  const actions = actionsOf(input);
  const known = input.evidence.workspace !== "none";
  // Without a diff or snapshots: the files the trajectory edited in place (or wrote over a set-up file).
  const existedBefore = (a: PlacedAction) => a.inPlace === true || (a.file !== null && input.setupFiles.has(a.file));
  const changed = known
    ? input.changes.filter((c) => c.kind === "updated").map((c) => c.path)
    : [
        ...new Set(
          actions.filter((a) => a.kind === "write" && a.file !== null && existedBefore(a)).map((a) => a.file!),
        ),
      ];
  if (changed.length === 0) {
    return verdict(
      "file_read",
      "not_applicable",
      known
        ? `${why}, and the run changed no existing file: nothing had to be read`
        : `${why}, and no file the trajectory edited in place: nothing had to be read`,
    );
  }
  const unread: { file: string; write: PlacedAction | null }[] = [];
  const readFirst: PlacedAction[] = [];
  for (const file of changed) {
    const write = actions.find((a) => (a.kind === "write" || a.kind === "delete") && a.file === file) ?? null;
    const read = actions.find((a) => a.kind === "read" && a.file === file && (write === null || a.order < write.order));
    if (read) readFirst.push(read);
    else unread.push({ file, write });
  }
  if (unread.length === 0) {
    return verdict(
      "file_read",
      "not_violated",
      `${why}: read each of the ${changed.length} file(s) it changed before changing it (step ${stepsCited(readFirst)
        .map((c) => c.stepId)
        .join(", ")})`,
      { citations: stepsCited(readFirst) },
    );
  }
  const evidence = unread.map((u) =>
    u.write
      ? `\`${u.file}\` was changed at step ${u.write.stepId} without being read first`
      : `\`${u.file}\` was changed without being read`,
  );
  return verdict(
    "file_read",
    "violated",
    `${why}: changed ${unread.map((u) => u.file).join(", ")} without reading it first`,
    { citations: stepsCited(unread.flatMap((u) => (u.write ? [u.write] : []))), evidence },
  );
}
