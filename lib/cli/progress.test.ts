import { describe, expect, it } from "vitest";
import { createProgress, formatProgress } from "./progress";

/** A log file (not a terminal) that keeps what is written, and a clock the test moves. */
function logAndClock() {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
  let t = 1_000;
  return { lines, stream, now: () => t, advance: (ms: number) => (t += ms) };
}

describe("createProgress", () => {
  it("counts a batch at once: the rate and ETA of its first line count the whole batch", () => {
    const { lines, stream, now, advance } = logAndClock();
    const progress = createProgress("runs", 10_000, stream, now);
    advance(4_000);
    progress.add(2_000);
    expect(lines).toEqual(["runs 2000/10000 (20%) 500.0/s, elapsed 4s, ETA 16s\n"]);
    advance(1_000);
    progress.add(2_000); // within 2 s of the last line: none
    advance(1_000);
    progress.finish();
    expect(lines.at(-1)).toBe("runs 4000/10000 (40%) 666.7/s, elapsed 6s, ETA 9s\n");
  });

  it("prints a log line at most every 2 seconds as items tick", () => {
    const { lines, stream, now, advance } = logAndClock();
    const progress = createProgress("runs", 5, stream, now);
    advance(2_500);
    progress.tick();
    progress.tick(true);
    expect(lines).toEqual(["runs 1/5 (20%) 0.4/s, elapsed 3s, ETA 10s\n"]);
    expect(formatProgress("runs", { done: 2, total: 5, failed: 1, elapsedMs: 2_500 })).toContain("1 failed");
  });
});
