/** A run as the runs list shows it (one row per run, newest first). */
export interface RunListRow {
  id: string;
  benchmarkId: string;
  instanceId: string;
  subtaskId: string;
  framework: string;
  model: string;
  agentName: string;
  status: string;
  exitReason: string;
  scripted: boolean;
  stepCount: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  durationMs: number;
  taskCompleted: boolean | null;
  startedAt: string;
}

export interface RunListPage {
  rows: RunListRow[];
  total: number;
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
  instanceId: string;
  subtaskId: string;
  prompt: string;
  contract: { mustRead: string[]; mayChange: string[]; expectedCreate: string[]; expectedDelete: string[] };
  agentName: string;
  framework: string;
  model: string;
  steps: {
    position: number;
    stepId: string;
    kind: string;
    role: string | null;
    text: string | null;
    toolName: string | null;
    /** JSON text. */
    toolArguments: string | null;
    command: string | null;
    exitCode: number | null;
    isError: boolean | null;
    path: string | null;
  }[];
  changes: { path: string; kind: string; beforeSize: number | null; afterSize: number | null }[];
  verdicts: {
    metric: string;
    value: string;
    rationale: string;
    citations: ({ stepId: string } | { path: string; hunk?: number })[];
    evidence: { message: string; path?: string; line?: number; hunk?: string }[];
    judgeName: string;
    judgeKind: string;
    judgeModel: string;
    promptVersion: string;
  }[];
}
