/** Runs a host tool (git, ps, pip, dpkg-query) for its standard output, with a time limit. */
import { execFile } from "node:child_process";

export interface ExecTextOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxBytes?: number;
}

/** The tool's stdout, or null when it is missing, fails, exits non-zero or runs out of time. */
export function execText(file: string, args: string[], options: ExecTextOptions): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env,
        timeout: options.timeoutMs,
        killSignal: "SIGKILL",
        maxBuffer: options.maxBytes ?? 64 * 1024 * 1024,
        encoding: "utf8",
      },
      (error, stdout) => resolve(error ? null : stdout),
    );
  });
}
