/**
 * Rule-judge cases (`npm run rule-judge -- CASES.jsonl`, docs/foreign-runs.md "Rule-judge cases"):
 * one JSON object per line holding what the rule judge looks at, without a run bundle or a
 * database. A case names a subtask (one of the nine, or `external`) or only a contract, the
 * workspace root, the steps in our trajectory format, and optionally the changed files, the
 * workspace's files, environment snapshots and the exit reason.
 */
import { z } from "zod";
import { BoundaryContractSchema, GroundTruthSchema } from "@/lib/benchmark/schema";
import { EXTERNAL_SUBTASK, InstanceSubtaskSchema } from "@/lib/benchmark/subtasks";
import {
  CapturedEvidenceSchema,
  EnvironmentSnapshotSchema,
  ExitReasonSchema,
  LimitsSchema,
  TrajectoryStepSchema,
} from "@/lib/bundle/schema";
import { SafeRelativePathSchema } from "@/lib/util/relative-path";
import type { EvaluationInput } from "./schema";

const CaseChangeSchema = z
  .object({
    path: SafeRelativePathSchema,
    kind: z.enum(["created", "updated", "deleted"]),
    /** Text of the file before and after (absent: not known; created files have no before, deleted no after). */
    before: z.string().nullable().optional(),
    after: z.string().nullable().optional(),
  })
  .strict();

export const RuleCaseSchema = z
  .object({
    /** Echoed in the output line; the line number when absent. */
    id: z.string().min(1).max(200).optional(),
    subtask: InstanceSubtaskSchema.optional(),
    contract: BoundaryContractSchema.optional(),
    groundTruth: GroundTruthSchema.optional(),
    prompt: z.string().max(100_000).optional(),
    /** The absolute directory the agent worked in (`/testbed`); null when not known. */
    workspaceRoot: z.string().min(1).max(4096).nullable().default(null),
    /** The framework whose tools the steps use (`openhands`, `claude-code`, ...): the tool registry's key. */
    framework: z.string().max(100).nullable().default(null),
    steps: z.array(TrajectoryStepSchema).max(100_000),
    changes: z.array(CaseChangeSchema).max(100_000).optional(),
    /** Workspace-relative paths of the workspace as the task set it up (paths are matched exactly against them). */
    workspaceFiles: z.array(SafeRelativePathSchema).max(500_000).optional(),
    environmentBefore: EnvironmentSnapshotSchema.nullable().default(null),
    environmentAfter: EnvironmentSnapshotSchema.nullable().default(null),
    exitReason: ExitReasonSchema.default("finished"),
    status: z.enum(["completed", "failed"]).default("completed"),
    limits: LimitsSchema.default({}),
    finalAnswer: z.string().nullable().default(null),
    /** What was captured; by default: the steps, the changes if given, the environment if both snapshots are. */
    evidence: CapturedEvidenceSchema.optional(),
  })
  .strict();
export type RuleCase = z.infer<typeof RuleCaseSchema>;

const buffer = (text: string | null | undefined) => (typeof text === "string" ? Buffer.from(text) : null);

/** The rule judge's input for one case. */
export function evaluationInputOfCase(ruleCase: RuleCase, runId: string): EvaluationInput {
  const changes = (ruleCase.changes ?? []).map((c) => ({
    path: c.path,
    kind: c.kind,
    before: c.kind === "created" ? null : buffer(c.before),
    after: c.kind === "deleted" ? null : buffer(c.after),
  }));
  const setupFiles = new Map<string, string>();
  for (const c of ruleCase.changes ?? []) if (typeof c.before === "string") setupFiles.set(c.path, c.before);
  const workspaceFiles = new Set(ruleCase.workspaceFiles ?? []);
  for (const c of changes) workspaceFiles.add(c.path);
  const finalAnswer = [...ruleCase.steps].reverse().find((s) => s.kind === "message" && s.role === "assistant");
  return {
    runId,
    subtask: ruleCase.subtask ?? EXTERNAL_SUBTASK,
    prompt: ruleCase.prompt ?? "",
    contract: ruleCase.contract ?? {
      mustRead: [],
      mayChange: [],
      expectedCreate: [],
      expectedDelete: [],
      origin: "none",
    },
    groundTruth: ruleCase.groundTruth ?? GroundTruthSchema.parse({}),
    status: ruleCase.status,
    exitReason: ruleCase.exitReason,
    limits: ruleCase.limits,
    steps: ruleCase.steps,
    changes,
    environmentBefore: ruleCase.environmentBefore,
    environmentAfter: ruleCase.environmentAfter,
    setupFiles,
    finalAnswer: ruleCase.finalAnswer ?? (finalAnswer?.kind === "message" ? finalAnswer.text : null),
    evidence: ruleCase.evidence ?? {
      trajectory: true,
      workspace: ruleCase.changes ? "snapshot" : "none",
      environment: ruleCase.environmentBefore !== null && ruleCase.environmentAfter !== null,
    },
    framework: ruleCase.framework,
    workspaceRoot: ruleCase.workspaceRoot,
    workspaceFiles: [...workspaceFiles].sort(),
    taskCheck: null,
  };
}
