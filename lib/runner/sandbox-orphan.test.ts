import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { bubblewrapAvailable } from "./sandbox";

const root = await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-orphan-"));
afterAll(() => fs.rm(root, { recursive: true, force: true }));

const running = (marker: string) =>
  execFileSync("ps", ["-eo", "args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it.skipIf(!(await bubblewrapAvailable()))(
  "a sandbox does not outlive its runner killed with SIGKILL, even while the sandbox is still starting",
  async () => {
    // Killed at once (the sandbox still blocked on --block-fd) and after it started.
    for (const [i, delayMs] of [0, 400].entries()) {
      const marker = `${4200 + i}.${process.pid}`;
      const workspace = path.join(root, `w${i}`);
      await fs.mkdir(workspace, { recursive: true });
      const runner = spawn(
        process.execPath,
        ["--import", "tsx", "lib/runner/sandbox-orphan.fixture.ts", workspace, path.join(root, `r${i}`), marker],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      await new Promise<void>((resolve) => runner.stdout.once("data", () => resolve()));
      await sleep(delayMs);
      runner.kill("SIGKILL");
      await new Promise((resolve) => runner.once("exit", resolve));
      // A leaked sandbox lives on (the command sleeps for an hour); one being killed is gone within
      // moments, though on a loaded machine (CI's unit tests beside it) once not within 2 s.
      let left = running(marker);
      for (let t = 0; t < 200 && left.length > 0; t++) {
        await sleep(50);
        left = running(marker);
      }
      expect(left, `after ${delayMs} ms`).toEqual([]);
    }
  },
  60_000,
);
