/** Test support: a CLI's io on in-memory streams, with what it printed. */
import { PassThrough } from "node:stream";
import { AppError } from "@/lib/errors/app-error";
import { exitCodeOf, type CliIo } from "./run-cli";

export function captureIo(env: Record<string, string | undefined> = {}): {
  io: CliIo;
  out: () => string;
  err: () => string;
} {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on("data", (c: Buffer) => out.push(c.toString()));
  stderr.on("data", (c: Buffer) => err.push(c.toString()));
  return {
    io: { stdout, stderr: stderr as unknown as NodeJS.WriteStream, env: env as NodeJS.ProcessEnv },
    out: () => out.join(""),
    err: () => err.join(""),
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The AppError main threw, if it threw one. */
  error?: AppError;
}

/** main() as runMain runs it: an AppError becomes its `error:` line and exit code; any other error is thrown. */
export async function runCaptured(
  main: (argv: string[], io: CliIo & { stdin?: NodeJS.ReadableStream }) => Promise<number>,
  argv: string[],
  env: Record<string, string | undefined> = {},
  stdin?: NodeJS.ReadableStream,
): Promise<CliRun> {
  const { io, out, err } = captureIo(env);
  let code: number;
  let error: AppError | undefined;
  try {
    code = await main(argv, { ...io, stdin });
  } catch (thrown) {
    if (!(thrown instanceof AppError)) throw thrown;
    error = thrown;
    io.stderr.write(`error: ${thrown.message}\n`);
    code = exitCodeOf(thrown);
  }
  return { code, stdout: out(), stderr: err(), error };
}
