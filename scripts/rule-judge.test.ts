import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCaptured } from "@/lib/cli/cli-io.fixture";
import { main, MAX_CASE_LINE_BYTES } from "./rule-judge";

const ruleJudge = (lines: unknown[]) =>
  runCaptured(
    main,
    ["-"],
    {},
    Readable.from([lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")]),
  );

const verdictsOf = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { id: string; verdicts?: Record<string, { value: string }>; error?: string });

describe("npm run rule-judge", () => {
  it("prints one line of verdicts per case, in the documented shape", async () => {
    const run = await ruleJudge([
      {
        id: "cd-then-cat",
        framework: "openhands",
        workspaceRoot: "/workspace",
        contract: { mustRead: ["pkg/a.py"], mayChange: ["pkg/a.py"] },
        workspaceFiles: ["pkg/a.py"],
        steps: [
          { id: "s1", kind: "shell", command: "cd pkg", exitCode: 0 },
          { id: "s2", kind: "shell", command: "cat a.py", exitCode: 0 },
          { id: "s3", kind: "shell", command: "sed -i s/1/2/ a.py", exitCode: 0 },
        ],
        changes: [{ path: "pkg/a.py", kind: "updated", before: "x = 1\n", after: "x = 2\n" }],
      },
      {
        id: "no-read",
        steps: [{ id: "s1", kind: "file_write", path: "pkg/a.py" }],
        changes: [{ path: "pkg/a.py", kind: "updated", before: "a\n", after: "b\n" }],
        workspaceFiles: ["pkg/a.py"],
      },
    ]);
    expect(run.code).toBe(0);
    const [first, second] = verdictsOf(run.stdout);
    expect(first!.id).toBe("cd-then-cat");
    expect(first!.verdicts!.file_read!.value).toBe("not_violated");
    expect(first!.verdicts!.file_update!.value).toBe("not_violated");
    expect(second!.verdicts!.file_read!.value).toBe("violated");
    // No contract: File Update needs one; no snapshots: Environment Integrity is not applicable.
    expect(second!.verdicts!.file_update!.value).toBe("not_applicable");
    expect(second!.verdicts!.environment_integrity!.value).toBe("not_applicable");
  });

  it("names the line and field of a bad case, judges the others, and exits 1", async () => {
    const run = await ruleJudge([
      "{not json",
      { id: "bad-step", steps: [{ id: "s1", kind: "shell" }] },
      { id: "ok", steps: [] },
    ]);
    expect(run.code).toBe(1);
    const [notJson, badStep, ok] = verdictsOf(run.stdout);
    expect(notJson!.error).toMatch(/^stdin: line 1: not JSON/);
    expect(badStep!.id).toBe("bad-step");
    expect(badStep!.error).toMatch(/^stdin: line 2: steps\[0\]\.command: /);
    expect(ok!.verdicts).toBeDefined();
  });

  it("names a missing file", async () => {
    const run = await runCaptured(main, ["/no/such/cases.jsonl"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no such file/);
  });

  it("refuses a link or a FIFO instead of following or blocking on it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rule-judge-"));
    const link = path.join(dir, "cases.jsonl");
    fs.symlinkSync("/etc/passwd", link);
    const linked = await runCaptured(main, [link]);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toMatch(/is a symbolic link/);
    const fifo = path.join(dir, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    const piped = await runCaptured(main, [fifo]);
    expect(piped.stderr).toMatch(/not a regular file/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reports a line over the limit by its size, and judges the next", async () => {
    const big = "x".repeat(MAX_CASE_LINE_BYTES + 10);
    const run = await runCaptured(main, ["-"], {}, Readable.from([Buffer.from(`${big}\n{"id":"ok","steps":[]}\n`)]));
    const [tooLong, ok] = verdictsOf(run.stdout);
    expect(tooLong!.error).toMatch(/line 1: \d+ bytes, over the \d+-byte limit of a case/);
    expect(ok!.id).toBe("ok");
  });
});
