import path from "node:path";
import { pathToFileURL } from "node:url";
import { AppError } from "@/lib/errors/app-error";

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

export const processIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });

/** Exit codes: 0 ok, 1 the work had failures, 2 bad usage or configuration. */
export function exitCodeOf(error: unknown): number {
  return error instanceof AppError && error.code === "INVALID_INPUT" ? 2 : 1;
}

/**
 * The one place a CLI turns an error into a line and an exit code. Internal errors print their
 * stack (they are bugs); AppErrors print their message only.
 */
export async function runMain(main: (argv: string[], io: CliIo) => Promise<number>): Promise<void> {
  const io = processIo();
  try {
    process.exitCode = await main(process.argv.slice(2), io);
  } catch (error) {
    if (error instanceof AppError) io.stderr.write(`error: ${error.message}\n`);
    else io.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = exitCodeOf(error);
  }
}

/** True when this module is the script node was started with (so tests can import main). */
export function isEntryPoint(importMetaUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && importMetaUrl === pathToFileURL(path.resolve(entry)).href;
}
