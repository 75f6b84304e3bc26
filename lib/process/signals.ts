/** The signals that ask a CLI or service to stop: Ctrl-C, `kill`, a closed terminal. */
import { constants } from "node:os";

export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** 128 + the signal's number, as a shell reports a process that a signal stopped (SIGTERM: 143). */
export const signalExitCode = (signal: NodeJS.Signals): number => 128 + (constants.signals[signal] ?? 0);

/**
 * Calls `handler` on each stop signal instead of the default (dying at once), so the caller can
 * stop its children and leave consistent data. Returns the function that removes the handlers.
 */
export function onStopSignals(handler: (signal: StopSignal) => void): () => void {
  const handlers = STOP_SIGNALS.map((signal) => [signal, () => handler(signal)] as const);
  for (const [signal, listener] of handlers) process.on(signal, listener);
  return () => {
    for (const [signal, listener] of handlers) process.off(signal, listener);
  };
}

/**
 * Calls `handler` once this process's parent has exited: an orphan is re-parented (to init or the
 * nearest subreaper), so its ppid changes. Under `npm run`, npm forwards a SIGTERM to its `sh -c`
 * only, which dies without passing it on: this is how the script below notices.
 */
export function onParentExit(handler: () => void, pollMs = 500): () => void {
  const parent = process.ppid;
  const poll = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(poll);
    handler();
  }, pollMs);
  return () => clearInterval(poll);
}
