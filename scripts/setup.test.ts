import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { main } from "./setup";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "setup-cli-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function io(env: Record<string, string | undefined>) {
  const err: string[] = [];
  const stderr = new PassThrough();
  stderr.on("data", (c: Buffer) => err.push(c.toString()));
  return {
    io: { stdout: new PassThrough(), stderr: stderr as unknown as NodeJS.WriteStream, env: env as NodeJS.ProcessEnv },
    err: () => err.join(""),
  };
}

describe("setup CLI", () => {
  it("with --check on a machine missing packages: one error naming the exact command, nothing installed", async () => {
    const run = io({ PATH: work, CHROMIUM_PATH: path.join(work, "chromium") });
    const error = await main(["--for", "test", "--check"], run.io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    const message = (error as AppError).message;
    expect(message).toMatch(/^missing system packages:\n {2}bubblewrap: the agent sandbox/);
    expect(message).toContain("chromium: the browser the end-to-end tests drive");
    expect(message.split("\n").at(-1)).toMatch(
      /sudo apt-get install -y --no-install-recommends bubblewrap procps git python3 python3-pip python3-pytest redis-server chromium\)?$/,
    );
  });

  it("says all present on this machine", async () => {
    const run = io(process.env);
    expect(await main(["--for", "demo", "--check"], run.io)).toBe(0);
    expect(run.err()).toBe("system packages for demo: all present\n");
  });

  it("refuses an unknown purpose, naming the choices", async () => {
    const error = await main(["--for", "prod"], io(process.env).io).catch((e: unknown) => e);
    expect((error as AppError).message).toBe('--for: expected one of demo, test, got "prod"');
  });
});
