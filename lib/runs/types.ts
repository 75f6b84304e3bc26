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
