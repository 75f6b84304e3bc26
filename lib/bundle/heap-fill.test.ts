import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const FIXTURE = fileURLToPath(new URL("./heap-fill.fixture.ts", import.meta.url));

describe("an import worker near its heap cap", () => {
  it("refuses JSON its heap cannot hold, even with the caller's JSON budget lifted", () => {
    // Under a 256 MB cap, 12 MiB of `{},` and then splitting a 60 MiB trajectory of newlines into
    // one array aborted the whole process (exit code 134); with the trajectory read line by line,
    // the worker's own cap still aborted it about 1 run in 7 (nodejs/node#47224). The worker now
    // holds the JSON it parses to what its heap can take (json-budget.ts jsonBytesWithinHeap).
    const run = spawnSync(process.execPath, ["--import", "tsx", FIXTURE, "256", "12", "60"], {
      encoding: "utf8",
      timeout: 120_000,
    });

    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    // 12 MiB of `{},` needs about 300 MB of heap (json-budget.ts): refused before it is parsed.
    const reply = JSON.parse(run.stdout) as { answer: number; message: string };
    expect(reply.answer).toBe(413);
    expect(reply.message).toMatch(/over the limit of 8053063 \(what a 256 MB import worker can parse\)/);
  }, 150_000);
});
