/**
 * Checking many runs: a few at a time (each check is a sandboxed pytest), every result stored as it
 * comes, counted per subtask and outcome for the summary. The database side comes in as a store.
 */
import pLimit from "p-limit";
import { checkTask } from "./run-check";
import type { TaskCheckInput, TaskCheckOptions, TaskCheckOutcome, TaskCheckResult } from "./schema";

export interface TaskCheckStore {
  load(runId: string): TaskCheckInput & { claimed: boolean | null };
  store(runId: string, result: TaskCheckResult, claimed: boolean | null): void;
}

export interface TaskCheckSummary {
  checked: number;
  /** Runs whose check could not be made (the checker's own error, not the run's). */
  failures: { runId: string; error: string }[];
  /** subtask -> outcome -> runs. */
  bySubtask: Record<string, Record<TaskCheckOutcome, number>>;
}

export async function checkRuns(
  store: TaskCheckStore,
  runIds: readonly string[],
  options: TaskCheckOptions & { concurrency: number; onRun?(runId: string, error?: string): void },
): Promise<TaskCheckSummary> {
  const summary: TaskCheckSummary = { checked: 0, failures: [], bySubtask: {} };
  const limit = pLimit(options.concurrency);
  await Promise.all(
    runIds.map((runId) =>
      limit(async () => {
        try {
          const input = store.load(runId);
          const result = await checkTask(input, options);
          store.store(runId, result, input.claimed);
          summary.checked += 1;
          const counts = (summary.bySubtask[input.instance.subtask] ??= {
            completed: 0,
            not_completed: 0,
            not_checkable: 0,
          });
          counts[result.outcome] += 1;
          options.onRun?.(runId);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          summary.failures.push({ runId, error: message });
          options.onRun?.(runId, message);
        }
      }),
    ),
  );
  return summary;
}

/** pass@1 of a subtask's counts: completed over the checkable runs (null when none is). */
export function passAt1(counts: Record<TaskCheckOutcome, number>): number | null {
  const checkable = counts.completed + counts.not_completed;
  return checkable === 0 ? null : counts.completed / checkable;
}
