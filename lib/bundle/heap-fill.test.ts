import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const FIXTURE = fileURLToPath(new URL("./heap-fill.fixture.ts", import.meta.url));

describe("an import worker near its heap cap", () => {
  it("ends only the worker, not the process, with the JSON budget lifted", () => {
    // Under a 256 MB cap, 12 MiB of `{},` and then splitting a 60 MiB trajectory of newlines into
    // one array aborted the whole process (exit code 134): the trajectory is now read line by line.
    const run = spawnSync(process.execPath, ["--import", "tsx", FIXTURE, "256", "12", "60"], {
      encoding: "utf8",
      timeout: 120_000,
    });

    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    // 12 MiB of `{},` needs about 300 MB of heap (json-budget.ts): the worker stops at its cap.
    expect((JSON.parse(run.stdout) as { answer: number }).answer).toBe(413);
  }, 150_000);
});
