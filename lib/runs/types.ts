import type { CapturedEvidence, RunSource } from "@/lib/bundle/schema";
import type { Mitigation } from "@/lib/codekit/arms";
import type { GuardRecord, MitigationPlan } from "@/lib/codekit/mitigation";
import type { BoundaryContract, GroundTruth } from "@/lib/benchmark/schema";
import type { Citation, TaskCheckOutcome, TaskCompletion } from "@/lib/judge/schema";
import type { ContractMark } from "./marks";
import type { FileDiffContent } from "./schema";
import type { TargetComparison } from "./target-function";

export type { TaskCheckOutcome } from "@/lib/judge/schema";

/** A run's stored task check, as the run page shows it. */
export interface TaskCheckView extends TaskCompletion {
  checkerVersion: number;
  checkedAt: string;
  durationMs: number;
}

/** A run as the runs browser shows it (one row per run). */
export interface RunListRow {
  id: string;
  benchmarkId: string;
  instanceId: string;
  subtaskId: string;
  framework: string;
  model: string;
  /** The configuration's mitigation arm. */
  mitigation: Mitigation;
  agentName: string;
  status: string;
  exitReason: string;
  scripted: boolean;
  synthetic: boolean;
  stepCount: number;
  totalTokens: number;
  costUsd: number | null;
  durationMs: number;
  taskCompleted: boolean | null;
  /** The task check's outcome and reason; null: never checked. */
  taskCheck: { outcome: TaskCheckOutcome; reason: string } | null;
  startedAt: string;
  /** The chosen judge's verdicts as metric bit masks (lib/metrics/catalog.ts); null: not judged by it. */
  violatedMask: number | null;
  decidedMask: number | null;
  /** Metrics on which two judges disagree. */
  disagreementMask: number;
}

export interface RunListPage {
  rows: RunListRow[];
  total: number;
  /**
   * Set when the searched words match more runs than this: only the newest this many of those
   * were filtered, sorted and counted. Null: every run the words match was.
   */
  searchCap: number | null;
}

/** One trajectory step as the run page shows it (long texts cut, see `textLength`). */
export interface RunStep {
  position: number;
  stepId: string;
  kind: string;
  role: string | null;
  /** Message, observation or shell output; cut at the page's limit. */
  text: string | null;
  /** The stored text's full length when `text` was cut, else null. */
  textLength: number | null;
  toolName: string | null;
  /** Pretty-printed JSON, cut like `text`. */
  toolArguments: string | null;
  command: string | null;
  exitCode: number | null;
  isError: boolean | null;
  path: string | null;
  /** What the step did against the boundary contract (lib/runs/contract-marks.ts). */
  marks: ContractMark[];
}

export interface ChangedFile {
  path: string;
  kind: "created" | "updated" | "deleted";
  beforeSize: number | null;
  afterSize: number | null;
  content: FileDiffContent;
}

export interface RunVerdict {
  metric: string;
  value: string;
  rationale: string;
  citations: Citation[];
  evidence: { message: string; path?: string; line?: number; hunk?: string }[];
  judgeName: string;
  judgeKind: string;
  judgeModel: string;
  promptVersion: string;
}

export interface RunDetail {
  id: string;
  status: string;
  exitReason: string;
  error: string | null;
  scripted: boolean;
  startedAt: string;
  durationMs: number;
  stepCount: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  taskCompleted: boolean | null;
  /** null: never checked (`npm run evaluate -- --task-checks`). */
  taskCheck: TaskCheckView | null;
  instanceId: string;
  subtaskId: string;
  prompt: string;
  contract: BoundaryContract;
  groundTruth: GroundTruth;
  agentName: string;
  framework: string;
  model: string;
  /** The configuration's mitigation arm. */
  arm: Mitigation;
  /** What the run was given under its arm; null: no plan recorded (the `none` arm, or a run made before arms). */
  mitigation: MitigationPlan | null;
  /** The sandbox guard's record (guard arm): writable folders, gaps, breaches; null when none was recorded or readable. */
  guard: GuardRecord | null;
  steps: RunStep[];
  changes: ChangedFile[];
  verdicts: RunVerdict[];
  /** Ground truth vs the agent's version of the target function (code generation subtasks only). */
  target: TargetComparison | null;
  /** A run made elsewhere: where it was read from, what was captured, and its repo diff. */
  provenance: RunProvenance | null;
}

/** Where a run made elsewhere came from (the bundle manifest's `source`, `evidence`, `workspaceRoot`). */
export interface RunProvenance {
  source: RunSource;
  evidence: CapturedEvidence;
  workspaceRoot: string | null;
  /** The run's repo diff as the log held it (its first REPO_DIFF_LIMIT bytes), or null. */
  repoDiff: string | null;
  /** The whole diff's size in bytes. */
  repoDiffLength: number;
  /** Whether `repoDiff` is only the head of it. */
  repoDiffCut: boolean;
}
