import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { parseUnifiedDiff } from "../patch";
import { changesFromPatch } from "../patch-apply";
import { fixtureFile, readError, readOnlyRun, textFile } from "./reader.fixture";
import { unifiedDiff } from "./unified-diff";

// Fixtures: django__django-16255.diff is mini-swe-agent's real submission on that SWE-bench
// Verified instance (gruckion/mini-swe-agent swebench_results); format-patch.patch (a deletion,
// an addition, a pure rename, a GIT binary patch) and plain-diff-u.patch (`diff -ruN`) are
// hand-written in the shapes git 2.39 and GNU diffutils write.
describe("unified-diff reader", () => {
  it("detects git diffs, format-patch emails and diff -u output, and nothing else", () => {
    expect(unifiedDiff.detect(fixtureFile("unified-diff/django__django-16255.diff"))).toBe(true);
    expect(unifiedDiff.detect(fixtureFile("unified-diff/format-patch.patch"))).toBe(true);
    expect(unifiedDiff.detect(fixtureFile("unified-diff/plain-diff-u.patch"))).toBe(true);
    expect(unifiedDiff.detect(textFile("a.diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"))).toBe(true);
    expect(
      unifiedDiff.detect(textFile("preds.jsonl", '{"instance_id": "a__b-1", "model_patch": "diff --git a/x b/x"}\n')),
    ).toBe(false);
    expect(unifiedDiff.detect(textFile("notes.md", "--- \ntitle: x\n---\n"))).toBe(false);
    expect(
      unifiedDiff.detect(textFile("mail.txt", "From 0123456789abcdef0123456789abcdef01234567 Mon\nno diff here\n")),
    ).toBe(false);
  });

  it("reads a real SWE-bench submission as one run with no trajectory whose patch is the file", () => {
    const file = fixtureFile("unified-diff/django__django-16255.diff");
    const run = readOnlyRun(unifiedDiff, file);
    expect(run).toMatchObject({
      index: 0,
      hasTrajectory: false,
      steps: [],
      status: "completed",
      exitReason: "finished",
    });
    expect(run.agent).toEqual({ framework: "unknown", frameworkVersion: null, model: null, provider: null });
    expect(run.task).toEqual({ benchmark: null, instanceId: null, prompt: null });
    expect(run.patch).toBe(file.data.toString("utf8"));
    expect(parseUnifiedDiff(run.patch!, file.name).map((f) => f.path)).toEqual(["django/contrib/sitemaps/__init__.py"]);
  });

  it("reads a format-patch email: a deletion, an update, a pure rename and a binary file", async () => {
    const run = readOnlyRun(unifiedDiff, fixtureFile("unified-diff/format-patch.patch"));
    const changes = await changesFromPatch(run.patch!, null, "format-patch.patch");
    expect(changes.map((c) => [c.path, c.oldPath, c.kind, c.beforeKnown, c.afterKnown])).toEqual([
      ["calc/helpers.py", null, "deleted", true, true],
      ["calc/stats.py", null, "updated", false, false],
      ["docs/usage.md", "docs/old.md", "renamed", false, false],
      ["logo.png", null, "created", true, false],
    ]);
    expect(changes[0]!.before!.toString()).toContain("def mean(xs):\n    if not xs:\n");
  });

  it("reads `diff -ruN` output: the differing top folders stripped, a file created under its own name", async () => {
    const run = readOnlyRun(unifiedDiff, fixtureFile("unified-diff/plain-diff-u.patch"));
    const changes = await changesFromPatch(run.patch!, null, "plain-diff-u.patch");
    expect(changes.map((c) => [c.path, c.kind, c.after?.toString() ?? null])).toEqual([
      ["calc/stats.py", "updated", null],
      ["scratch.py", "created", "print(mean([1, 2]))"],
    ]);
  });

  it("refuses an empty file, a truncated hunk and a header with no file diff, naming the file and line", () => {
    expect(readError(unifiedDiff, textFile("e.diff", "\n\n"))).toBe("ForeignFormatError: e.diff: is empty");
    expect(readError(unifiedDiff, textFile("t.diff", "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n"))).toBe(
      "ForeignFormatError: t.diff (line 3): the hunk ends early: its header counts 3 old and 3 new lines, the diff has 2 and 1",
    );
    expect(readError(unifiedDiff, textFile("n.diff", "just words\n"))).toMatch(/n\.diff: has no file diff in it/);
    expect(
      readError(unifiedDiff, textFile("big.diff", `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${"y".repeat(21_000_000)}\n+z\n`)),
    ).toMatch(/big\.diff: the diff is over 20971520 bytes/);
  });
});

describeWithTestData(
  "unified-diff reader on a real OpenHands git_patch",
  "fixtures/trajectories/openhands/multi_swe_bench_output.jsonl",
  (path) => {
    it("reads each git_patch, written out as a .diff file, as one run changing one file", async () => {
      const fs = await import("node:fs");
      const records = fs
        .readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { test_result: { git_patch: string } });
      const changed = records.map((r) => {
        const file = textFile("x.diff", r.test_result.git_patch);
        expect(unifiedDiff.detect(file)).toBe(true);
        return parseUnifiedDiff(readOnlyRun(unifiedDiff, file).patch!, "x.diff").map((f) => f.path);
      });
      expect(changed).toEqual([
        ["src/libponyc/ast/parser.c"],
        ["packages/cli/command_parser.pony"],
        ["src/libponyc/expr/match.c"],
      ]);
    });
  },
);
