import { z } from "zod";
import type { BoundaryContract, GroundTruth } from "@/lib/benchmark/schema";
import type { InstanceSubtask } from "@/lib/benchmark/subtasks";
import type { CapturedEvidence, EnvironmentSnapshot, TrajectoryStep } from "@/lib/bundle/schema";
export type { CapturedEvidence } from "@/lib/bundle/schema";
import { CitationSchema, JudgeIdentitySchema, LimitsSchema } from "@/lib/bundle/schema";
import type { MetricId, VerdictValue } from "@/lib/metrics/catalog";

export type Citation = z.infer<typeof CitationSchema>;
export type Limits = z.infer<typeof LimitsSchema>;

/** One changed file of a run, with its contents (null where the file did not exist). */
export interface EvaluatedChange {
  path: string;
  kind: "created" | "updated" | "deleted";
  before: Buffer | null;
  after: Buffer | null;
  /** Bytes of the after side, known even when its content was not kept (over the runner's size cap). */
  afterSize?: number | null;
}

/** A run's task completion (DESIGN.md 2b; lib/task-check decides it). */
export type TaskCheckOutcome = "completed" | "not_completed" | "not_checkable";

/** A run's stored task check (lib/task-check), as the judges read it: evidence, never a verdict. */
export interface TaskCompletion {
  outcome: TaskCheckOutcome;
  /** One sentence: what was checked and why it came out so. */
  reason: string;
  /** The tail of what the check printed (pytest, the import); "" for checks decided without running anything. */
  output: string;
  /** What the run's bundle itself claimed (manifest `taskCompleted`), kept apart from the check. */
  claimed: boolean | null;
}

/** Everything the judges look at for one run; built from the database by db/queries/evaluation.ts. */
export interface EvaluationInput {
  runId: string;
  subtask: InstanceSubtask;
  prompt: string;
  contract: BoundaryContract;
  groundTruth: GroundTruth;
  status: "completed" | "failed";
  exitReason: string;
  limits: Limits;
  steps: TrajectoryStep[];
  changes: EvaluatedChange[];
  environmentBefore: EnvironmentSnapshot | null;
  environmentAfter: EnvironmentSnapshot | null;
  /** Files as the task set them up (before the agent acted), by path, where known. */
  setupFiles: Map<string, string>;
  /** The agent's last assistant message: the answer of the function-level subtask. */
  finalAnswer: string | null;
  evidence: CapturedEvidence;
  /** The agent's framework as its configuration names it (`claude-code`, `openhands`, `builtin`...): the tool registry's key. */
  framework: string | null;
  /** The absolute path of the workspace as the agent saw it (`/testbed`, the sandbox's folder), when known. */
  workspaceRoot: string | null;
  /**
   * Workspace-relative paths of the files as the task set them up, plus those the agent created:
   * what paths in commands are matched against (exactly) and globs expanded over.
   */
  workspaceFiles: readonly string[];
  /** The run's task check, where one is stored (`npm run evaluate -- --task-checks`); null when none is. */
  taskCheck: TaskCompletion | null;
}

/** One checkable fact behind a verdict: a sentence, and where to look (file, line, diff hunk). */
export interface EvidenceItem {
  message: string;
  path?: string;
  line?: number;
  hunk?: string;
}

export interface VerdictDraft {
  metric: MetricId;
  value: VerdictValue;
  rationale: string;
  citations: Citation[];
  evidence: EvidenceItem[];
}

export type JudgeIdentity = z.infer<typeof JudgeIdentitySchema>;

/** Two identities name the same judge row (absent fields are stored as ""). */
export const sameJudge = (a: z.input<typeof JudgeIdentitySchema>, b: z.input<typeof JudgeIdentitySchema>) =>
  a.kind === b.kind &&
  a.name === b.name &&
  (a.provider ?? "") === (b.provider ?? "") &&
  (a.model ?? "") === (b.model ?? "") &&
  (a.promptVersion ?? "") === (b.promptVersion ?? "");

export function verdict(
  metric: MetricId,
  value: VerdictValue,
  rationale: string,
  extra: { citations?: Citation[]; evidence?: (string | EvidenceItem)[] } = {},
): VerdictDraft {
  const evidence = (extra.evidence ?? []).map((e) => (typeof e === "string" ? { message: e } : e));
  return { metric, value, rationale, citations: extra.citations ?? [], evidence };
}
