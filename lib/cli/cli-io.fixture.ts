/** Test support: a CLI's io on in-memory streams, with what it printed. */
import { PassThrough } from "node:stream";
import type { CliIo } from "./run-cli";

export function captureIo(env: Record<string, string> = {}): { io: CliIo; out: () => string; err: () => string } {
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
