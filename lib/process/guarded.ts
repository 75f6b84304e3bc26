/**
 * A child process that cannot outlive its parent: started through guard.mjs, which holds it and
 * everything it starts in one process group, ends that group when asked or when this process
 * dies (its stdin pipe closes), and reports the command's exit status as its own.
 */
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { fileURLToPath } from "node:url";

const GUARD = fileURLToPath(new URL("./guard.mjs", import.meta.url));

export interface GuardedOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr of the command: inherited, ignored, or piped to this process. */
  output?: "inherit" | "ignore" | "pipe";
  /** Between SIGTERM and SIGKILL of the command's group when it is stopped. */
  graceMs: number;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Guarded {
  /** The guard's process (its stdout/stderr carry the command's when piped). */
  readonly process: ChildProcess;
  readonly exited: Promise<Exit>;
  /** Asks the guard to end the command's group (SIGTERM, SIGKILL after the grace); resolves on exit. */
  stop(): Promise<Exit>;
}

export function spawnGuarded(file: string, args: string[], options: GuardedOptions): Guarded {
  const output = options.output ?? "inherit";
  const stdio: StdioOptions = ["pipe", output, output];
  const child = spawn(process.execPath, [GUARD, String(options.graceMs), "--", file, ...args], {
    env: options.env,
    cwd: options.cwd,
    stdio,
  });
  // The pipe's only job is to close when this process dies; never let it keep this one alive.
  child.stdin?.on("error", () => {});
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: 127, signal: null }));
  });
  return {
    process: child,
    exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
