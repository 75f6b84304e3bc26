/**
 * How run-agents stops on SIGTERM, SIGINT or SIGHUP (a job's Cancel, Ctrl-C, the demo stopping):
 * no new run starts; the runs in progress are aborted (their sandboxes killed at once) and
 * dropped: their folders removed and nothing imported, so the instance is run again next time,
 * whole. Finished runs stay recorded. Each run is imported in one transaction, so even a SIGKILL
 * leaves no half-recorded run in the database; a folder it leaves is removed before its rerun.
 */
import { removeTree } from "@/lib/runner/copy-tree";
import { onStopSignals, signalExitCode, type StopSignal } from "@/lib/process/signals";

export interface RunStopper {
  readonly signal: AbortSignal;
  /** The signal that stopped this run-agents, if one did. */
  stoppedBy(): StopSignal | null;
  /** After a run came back: true (and its folder removed) when it was cut short by a stop. */
  dropIfStopped(runDir: string): Promise<boolean>;
  /** The summary line and exit code of a stopped run-agents (128 + signal), or null. */
  summary(counts: { dropped: number; notStarted: number }): { line: string; code: number } | null;
  dispose(): void;
}

export function createRunStopper(stderr: NodeJS.WritableStream): RunStopper {
  const controller = new AbortController();
  let stoppedBy: StopSignal | null = null;
  const dispose = onStopSignals((signal) => {
    if (stoppedBy) return;
    stoppedBy = signal;
    stderr.write(`\n${signal}: stopping; runs in progress are dropped, finished runs are kept\n`);
    controller.abort(signal);
  });
  return {
    signal: controller.signal,
    stoppedBy: () => stoppedBy,
    async dropIfStopped(runDir) {
      if (!controller.signal.aborted) return false;
      await removeTree(runDir);
      return true;
    },
    summary({ dropped, notStarted }) {
      if (!stoppedBy) return null;
      return {
        line: `stopped by ${stoppedBy}: ${dropped} run(s) in progress dropped, ${notStarted} not started; run the same command again to resume`,
        code: signalExitCode(stoppedBy),
      };
    },
    dispose,
  };
}
