import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCaptured } from "@/lib/cli/cli-io.fixture";
import { main } from "./rule-judge";

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
});
