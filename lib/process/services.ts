/**
 * Long-running services started together (the demo's web server and job worker) that stop
 * together, however the starter is stopped: Ctrl-C, SIGTERM or SIGHUP are forwarded; if the
 * starter is killed outright, each service's guard sees its pipe close (guarded.ts); if the
 * starter's own parent dies (a closed terminal, a killed supervisor), the starter notices that
 * it was re-parented and stops them.
 */
import { spawnGuarded, type Exit, type Guarded } from "./guarded";
import { onParentExit, onStopSignals, signalExitCode, type StopSignal } from "./signals";

export interface ServiceSpec {
  name: string;
  file: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  output?: "inherit" | "ignore";
}

export interface ServiceOptions {
  /** Between SIGTERM and SIGKILL of a service's process group. */
  graceMs: number;
  /** How often the starter checks that its parent is still the one it started with. */
  parentPollMs?: number;
}

export interface Services {
  readonly guards: ReadonlyMap<string, Guarded>;
  /** The first service to exit on its own, with its status. */
  readonly firstExit: Promise<{ name: string; exit: Exit }>;
  /** Stops every service and waits until each group is gone. */
  stop(): Promise<void>;
}

export function startServices(specs: ServiceSpec[], options: ServiceOptions): Services {
  const guards = new Map(
    specs.map((spec) => [
      spec.name,
      spawnGuarded(spec.file, spec.args, { env: spec.env, output: spec.output, graceMs: options.graceMs }),
    ]),
  );
  const firstExit = Promise.race([...guards].map(([name, guard]) => guard.exited.then((exit) => ({ name, exit }))));
  return {
    guards,
    firstExit,
    async stop() {
      await Promise.all([...guards.values()].map((guard) => guard.stop()));
    },
  };
}

export type StopReason = StopSignal | "parent-exited";

/** The exit status for a stop reason: 128 + signal number; 0 when the parent left (nobody reads it). */
export const exitCodeFor = (reason: StopReason): number => (reason === "parent-exited" ? 0 : signalExitCode(reason));

/**
 * Resolves when this process is asked to stop: a stop signal (which then no longer ends it by
 * default), or its parent died. `dispose` removes the handlers and the parent watch.
 */
export function stopRequested(parentPollMs = 500): { reason: Promise<StopReason>; dispose(): void } {
  let dispose = () => {};
  const reason = new Promise<StopReason>((resolve) => {
    const removeHandlers = onStopSignals(resolve);
    const stopWatching = onParentExit(() => resolve("parent-exited"), parentPollMs);
    dispose = () => {
      stopWatching();
      removeHandlers();
    };
  });
  return { reason, dispose: () => dispose() };
}

/**
 * Starts the services and keeps them until this process is asked to stop or one of them exits;
 * then stops them all. Returns the exit code for the starter: 128 + signal, or the service's own.
 */
export async function serveUntilStopped(
  specs: ServiceSpec[],
  options: ServiceOptions & { onStop?: (why: string) => void },
): Promise<number> {
  const stop = stopRequested(options.parentPollMs);
  const services = startServices(specs, options);
  try {
    const ended = await Promise.race([stop.reason.then((reason) => ({ reason })), services.firstExit]);
    if ("reason" in ended) {
      options.onStop?.(ended.reason === "parent-exited" ? "the parent process exited" : ended.reason);
      return exitCodeFor(ended.reason);
    }
    options.onStop?.(`${ended.name} exited (${ended.exit.signal ?? `code ${ended.exit.code}`})`);
    return ended.exit.code === 0 ? 0 : 1;
  } finally {
    stop.dispose();
    await services.stop();
  }
}
