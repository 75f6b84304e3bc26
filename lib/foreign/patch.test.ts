import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { MAX_HEADER_LINE_CHARS, MAX_PATCH_BYTES, parseUnifiedDiff } from "./patch";
import { applyPatchFile, changesFromPatch, PatchApplyError } from "./patch-apply";
import type { RepoReader } from "./repo";
import { ForeignFormatError } from "./types";

const diff = (...lines: string[]) => `${lines.join("\n")}\n`;

/** A repository held in memory, for the rebuild tests. */
function memoryRepo(files: Record<string, string>): RepoReader {
  return {
    describe: "memory repo",
    listFiles: () => Object.keys(files).sort(),
    readFile: async (p) => (p in files ? Buffer.from(files[p]!) : null),
  };
}

const UPDATE = diff(
  "diff --git a/pkg/calc.py b/pkg/calc.py",
  "index 1111111..2222222 100644",
  "--- a/pkg/calc.py",
  "+++ b/pkg/calc.py",
  "@@ -2,3 +2,3 @@ def mean(xs):",
  " a",
  "-b",
  "+B",
  " c",
);

describe("parseUnifiedDiff", () => {
  it("reads a git diff of an updated file: path without a/ b/, one hunk with its section", () => {
    const [file, ...rest] = parseUnifiedDiff(UPDATE, "x.diff");
    expect(rest).toEqual([]);
    expect(file).toMatchObject({ path: "pkg/calc.py", oldPath: null, kind: "updated", binary: false });
    expect(file!.hunks[0]).toMatchObject({
      oldStart: 2,
      oldLines: 3,
      newStart: 2,
      newLines: 3,
      section: "def mean(xs):",
      line: 5,
    });
    expect(file!.hunks[0]!.lines.map((l) => l.op + l.text)).toEqual([" a\n", "-b\n", "+B\n", " c\n"]);
  });

  it("reads new and deleted file modes, and an empty new file with no hunk", () => {
    const files = parseUnifiedDiff(
      diff(
        "diff --git a/new.py b/new.py",
        "new file mode 100644",
        "index 0000000..3333333",
        "--- /dev/null",
        "+++ b/new.py",
        "@@ -0,0 +1,2 @@",
        "+x = 1",
        "+y = 2",
        "diff --git a/old.py b/old.py",
        "deleted file mode 100644",
        "index 4444444..0000000",
        "--- a/old.py",
        "+++ /dev/null",
        "@@ -1 +0,0 @@",
        "-gone",
        "diff --git a/empty.txt b/empty.txt",
        "new file mode 100644",
        "index 0000000..e69de29",
      ),
      "x.diff",
    );
    expect(files.map((f) => [f.path, f.kind, f.hunks.length])).toEqual([
      ["new.py", "created", 1],
      ["old.py", "deleted", 1],
      ["empty.txt", "created", 0],
    ]);
  });

  it("reads a rename with and without hunks, and a copy as a created file with its source", () => {
    const files = parseUnifiedDiff(
      diff(
        "diff --git a/src/a.py b/lib/a.py",
        "similarity index 100%",
        "rename from src/a.py",
        "rename to lib/a.py",
        "diff --git a/src/b.py b/lib/b.py",
        "similarity index 80%",
        "rename from src/b.py",
        "rename to lib/b.py",
        "index 5555555..6666666 100644",
        "--- a/src/b.py",
        "+++ b/lib/b.py",
        "@@ -1 +1 @@",
        "-old",
        "+new",
        "diff --git a/c.py b/d.py",
        "similarity index 100%",
        "copy from c.py",
        "copy to d.py",
      ),
      "x.diff",
    );
    expect(files.map((f) => [f.path, f.oldPath, f.kind, f.hunks.length])).toEqual([
      ["lib/a.py", "src/a.py", "renamed", 0],
      ["lib/b.py", "src/b.py", "renamed", 1],
      ["d.py", "c.py", "created", 0],
    ]);
  });

  it("knows binary files by path and kind only: `Binary files ... differ` and a GIT binary patch", () => {
    const files = parseUnifiedDiff(
      diff(
        "diff --git a/logo.png b/logo.png",
        "index 7777777..8888888 100644",
        "Binary files a/logo.png and b/logo.png differ",
        "diff --git a/data.bin b/data.bin",
        "new file mode 100644",
        "index 0000000..9999999",
        "GIT binary patch",
        "literal 12",
        "TcmZ?wbaHlPWMp7qWMlvU1ONa4",
        "",
        "literal 0",
        "HcmV?d00001",
        "",
        "diff --git a/after.txt b/after.txt",
        "--- a/after.txt",
        "+++ b/after.txt",
        "@@ -1 +1 @@",
        "-1",
        "+2",
      ),
      "x.diff",
    );
    expect(files.map((f) => [f.path, f.kind, f.binary])).toEqual([
      ["logo.png", "updated", true],
      ["data.bin", "created", true],
      ["after.txt", "updated", false],
    ]);
    expect(() => applyPatchFile("", files[0]!)).toThrow(/logo.png: a binary patch/);
  });

  it("reads `\\ No newline at end of file` as a last line without its line end", () => {
    const [file] = parseUnifiedDiff(
      diff("--- a/t.txt", "+++ b/t.txt", "@@ -1,2 +1,2 @@", " one", "-two", "\\ No newline at end of file", "+two"),
      "x.diff",
    );
    expect(file!.hunks[0]!.lines.map((l) => l.text)).toEqual(["one\n", "two", "two\n"]);
    expect(applyPatchFile("one\ntwo", file!)).toBe("one\ntwo\n");
    expect(() => applyPatchFile("one\ntwo\n", file!)).toThrow(PatchApplyError);
  });

  it("reads plain `diff -u` (timestamps, a backup name) and `diff -ru old/ new/` without git headers", () => {
    const files = parseUnifiedDiff(
      diff(
        "--- calc.py.orig\t2024-01-01 10:00:00.000000000 +0000",
        "+++ calc.py\t2024-01-01 10:05:00.000000000 +0000",
        "@@ -1 +1 @@",
        "-a",
        "+b",
        "diff -ruN old/pkg/x.py new/pkg/x.py",
        "--- old/pkg/x.py\t2024-01-01 10:00:00",
        "+++ new/pkg/x.py\t2024-01-01 10:05:00",
        "@@ -1 +1 @@",
        "-a",
        "+b",
        "--- /dev/null\t1970-01-01 00:00:00",
        "+++ b/made.py\t2024-01-01 10:05:00",
        "@@ -0,0 +1 @@",
        "+made",
        "Only in old: stale.txt",
        "Binary files old/img.png and new/img.png differ",
      ),
      "x.diff",
    );
    expect(files.map((f) => [f.path, f.kind, f.binary])).toEqual([
      ["calc.py", "updated", false],
      ["pkg/x.py", "updated", false],
      ["made.py", "created", false],
      ["img.png", "updated", true],
    ]);
  });

  it("reads a CRLF-encoded patch as text lines, and keeps a `\\r` that belongs to a CRLF file in an LF patch", () => {
    const crlfPatch = UPDATE.replace(/\n/g, "\r\n");
    expect(parseUnifiedDiff(crlfPatch, "x.diff")[0]!.hunks[0]!.lines.map((l) => l.text)).toEqual([
      "a\n",
      "b\n",
      "B\n",
      "c\n",
    ]);
    const [file] = parseUnifiedDiff(
      diff("--- a/w.txt", "+++ b/w.txt", "@@ -1,2 +1,2 @@", " a\r", "-b\r", "+B\r"),
      "x.diff",
    );
    expect(applyPatchFile("a\r\nb\r\n", file!)).toBe("a\r\nB\r\n");
  });

  it("unquotes git's C-quoted paths (octal UTF-8 bytes, a space) and reads --no-prefix diffs", () => {
    const files = parseUnifiedDiff(
      diff(
        'diff --git "a/docs/t\\303\\251st.md" "b/docs/t\\303\\251st.md"',
        '--- "a/docs/t\\303\\251st.md"',
        '+++ "b/docs/t\\303\\251st.md"',
        "@@ -1 +1 @@",
        "-a",
        "+b",
        "diff --git a/my file.txt b/my file.txt",
        "old mode 100644",
        "new mode 100755",
        "diff --git src/x.py src/x.py",
        "--- src/x.py",
        "+++ src/x.py",
        "@@ -1 +1 @@",
        "-a",
        "+b",
      ),
      "x.diff",
    );
    expect(files.map((f) => [f.path, f.kind])).toEqual([
      ["docs/tést.md", "updated"],
      ["my file.txt", "updated"],
      ["src/x.py", "updated"],
    ]);
  });

  it("skips a format-patch email's message, diffstat and signature", () => {
    const files = parseUnifiedDiff(
      [
        "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001",
        "Subject: [PATCH] Fix mean",
        "",
        "---",
        " pkg/calc.py | 2 +-",
        " 1 file changed, 1 insertion(+), 1 deletion(-)",
        "",
        UPDATE.trimEnd(),
        "-- ",
        "2.39.5",
        "",
      ].join("\n"),
      "0001-fix.patch",
    );
    expect(files.map((f) => f.path)).toEqual(["pkg/calc.py"]);
  });

  it("refuses absolute paths and paths that leave the repository, naming the line", () => {
    expect(() =>
      parseUnifiedDiff(diff("--- /etc/passwd", "+++ /etc/passwd", "@@ -1 +1 @@", "-a", "+b"), "evil.diff"),
    ).toThrow('evil.diff (line 1): path "/etc/passwd" is absolute');
    expect(() =>
      parseUnifiedDiff(
        diff("diff --git a/../x b/../x", "--- a/../x", "+++ b/../x", "@@ -1 +1 @@", "-a", "+b"),
        "evil.diff",
      ),
    ).toThrow("escapes its root with '..'");
  });

  it("refuses a truncated hunk, a hunk longer than its header, a combined diff and a diff over the size limit", () => {
    const truncated = UPDATE.split("\n").slice(0, -2).join("\n");
    expect(() => parseUnifiedDiff(truncated, "t.diff")).toThrow(
      /t\.diff \(line 5\): the hunk ends early: its header counts 3 old and 3 new lines, the diff has 2 and 2/,
    );
    expect(() => parseUnifiedDiff(diff("--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b", "+c"), "long.diff")).toThrow(
      /long\.diff \(line 6\): more lines than the hunk header at line 3 counts/,
    );
    expect(() => parseUnifiedDiff(diff("diff --cc file.c", "index 1,2..3"), "m.diff")).toThrow(ForeignFormatError);
    expect(() => parseUnifiedDiff("x".repeat(MAX_PATCH_BYTES + 1), "big.diff")).toThrow(/over 20971520 bytes/);
    expect(() => parseUnifiedDiff(diff("@@ -1 +1 @@", "-a", "+b"), "h.diff")).toThrow(/no `---`\/`\+\+\+` file header/);
  });
});

describe("parseUnifiedDiff on hostile headers", () => {
  it("skips a 320 KB line of ` and ` that never ends in ` differ` (was: a backtracking regex, 17 s)", () => {
    const text = `${UPDATE}Binary files ${" and ".repeat(64_000)}\n`;
    expect(parseUnifiedDiff(text, "x.diff").map((f) => f.path)).toEqual(["pkg/calc.py"]);
  });

  it("tells the names of `Binary files ... differ` apart when they hold ` and `", () => {
    const names = (line: string) => parseUnifiedDiff(diff(line), "b.diff").map((f) => [f.path, f.kind]);
    expect(names("Binary files a/x and y.png and b/x and y.png differ")).toEqual([["x and y.png", "updated"]]);
    expect(names("Binary files /dev/null and b/x and y.png differ")).toEqual([["x and y.png", "created"]]);
    expect(names("Binary files a/x and y.png and /dev/null differ")).toEqual([["x and y.png", "deleted"]]);
    expect(names("Binary files old/a.bin and new/a.bin differ")).toEqual([["a.bin", "updated"]]);
  });

  it("refuses a header line over the limit, naming its line", () => {
    const long = `b/${"x".repeat(MAX_HEADER_LINE_CHARS)}`;
    expect(() => parseUnifiedDiff(diff("--- a/x", `+++ ${long}`, "@@ -1 +1 @@", "-a", "+b"), "h.diff")).toThrow(
      /h\.diff \(line 2\): a header line of 65542 characters \(over 65536\)/,
    );
    expect(() => parseUnifiedDiff(diff(`Binary files a/x and ${long} differ`), "b.diff")).toThrow(/b\.diff \(line 1\)/);
    expect(() => parseUnifiedDiff(diff(`diff --git a/x ${long}`), "g.diff")).toThrow(/g\.diff \(line 1\)/);
  });

  it("reads a `diff --git` line of 30 000 unquoted spaces as names it cannot tell apart", () => {
    const words = `diff --git ${"x ".repeat(30_000)}x`;
    expect(() => parseUnifiedDiff(diff(words), "s.diff")).toThrow(/file name cannot be read/);
  });
});

describe("applyPatchFile", () => {
  const [file] = parseUnifiedDiff(UPDATE, "x.diff");

  it("applies a hunk where its header says, and at an offset when lines were added above", () => {
    expect(applyPatchFile("z\na\nb\nc\nd\n", file!)).toBe("z\na\nB\nc\nd\n");
    expect(applyPatchFile("new\nnew\nz\na\nb\nc\n", file!)).toBe("new\nnew\nz\na\nB\nc\n");
  });

  it("throws naming the file, the hunk and the first line that differs when the context is not there", () => {
    expect(() => applyPatchFile("z\na\nX\nc\n", file!)).toThrow(
      'pkg/calc.py: hunk 1 of 1 (line 5 of the diff, @@ -2,3 +2,3 @@) does not apply: its context and removed lines are nowhere in the file; at line 3 the hunk expects "b\\n", the file has "X\\n"',
    );
  });

  it("applies several hunks in order, carrying the offset, and refuses a deletion that leaves lines", () => {
    const [two] = parseUnifiedDiff(
      diff("--- a/f", "+++ b/f", "@@ -1,2 +1,3 @@", " 1", "+1.5", " 2", "@@ -5,2 +6,1 @@", " 5", "-6"),
      "x",
    );
    expect(applyPatchFile("1\n2\n3\n4\n5\n6\n", two!)).toBe("1\n1.5\n2\n3\n4\n5\n");
    const [deletion] = parseUnifiedDiff(diff("--- a/f", "+++ /dev/null", "@@ -1 +0,0 @@", "-1"), "x");
    expect(() => applyPatchFile("1\n2\n", deletion!)).toThrow(/deletes it but leaves 1 line/);
  });

  it("applies a hunk at the end of a file of 200 000 lines (was: the stack overflowed)", () => {
    const [last] = parseUnifiedDiff(diff("--- a/f", "+++ b/f", "@@ -200000 +200000 @@", "-last", "+LAST"), "x");
    const after = applyPatchFile(`${"line\n".repeat(199_999)}last\n`, last!);
    expect(after.length).toBe(200_000 * 5);
    expect(after.endsWith("line\nLAST\n")).toBe(true);
  });

  // 40 000 blank context lines, a changed line, 40 000 more: at every line of a file of blank
  // lines all but one line of the block match (was: the block compared at each line, minutes).
  const blanks = (n: number) => Array.from({ length: n }, () => " ");
  const [long] = parseUnifiedDiff(
    diff("--- a/f", "+++ b/f", "@@ -1,80001 +1,80001 @@", ...blanks(40_000), "-x", "+y", ...blanks(40_000)),
    "x",
  );

  it("finds a hunk of 80 000 repeated lines far from where its header says, in one pass", () => {
    const before = `${"\n".repeat(300_000)}x\n${"\n".repeat(100_000)}`;
    const after = applyPatchFile(before, long!);
    expect(after).toBe(`${"\n".repeat(300_000)}y\n${"\n".repeat(100_000)}`);
  });

  it("says that a hunk of 80 000 repeated lines is nowhere, in one pass", () => {
    expect(() => applyPatchFile(`x\n${"\n".repeat(400_000)}`, long!)).toThrow(
      /hunk 1 of 1 .* does not apply: its context and removed lines are nowhere in the file; at line 1 the hunk expects "\\n", the file has "x\\n"/,
    );
  });

  it("searches only the lines a hunk can start at when its header names a line past the end", () => {
    const [far] = parseUnifiedDiff(
      diff("--- a/f", "+++ b/f", "@@ -999999999,2 +999999999,2 @@", " a", "-b", "+B"),
      "x",
    );
    expect(applyPatchFile("a\nb\nc\n", far!)).toBe("a\nB\nc\n");
  });
});

describe("changesFromPatch", () => {
  const MIXED = diff(
    UPDATE.trimEnd(),
    "diff --git a/new.py b/new.py",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/new.py",
    "@@ -0,0 +1,2 @@",
    "+x = 1",
    "+y = 2",
    "diff --git a/old.py b/old.py",
    "deleted file mode 100644",
    "--- a/old.py",
    "+++ /dev/null",
    "@@ -1,2 +0,0 @@",
    "-gone",
    "-too",
  );

  it("without a repository: created after and deleted before come from the hunks, an update is unknown", async () => {
    const changes = await changesFromPatch(MIXED, null, "x.diff");
    expect(changes.map((c) => [c.path, c.kind, c.beforeKnown, c.afterKnown])).toEqual([
      ["pkg/calc.py", "updated", false, false],
      ["new.py", "created", true, true],
      ["old.py", "deleted", true, true],
    ]);
    expect(changes[1]!.after?.toString()).toBe("x = 1\ny = 2\n");
    expect(changes[1]!.before).toBeNull();
    expect(changes[2]!.before?.toString()).toBe("gone\ntoo\n");
    expect(changes[2]!.after).toBeNull();
  });

  it("with a repository: before is the repository's file, after the patch applied to it", async () => {
    const repo = memoryRepo({ "pkg/calc.py": "z\na\nb\nc\n", "old.py": "gone\ntoo\n" });
    const changes = await changesFromPatch(MIXED, repo, "x.diff");
    expect(changes.map((c) => [c.path, c.before?.toString() ?? null, c.after?.toString() ?? null])).toEqual([
      ["pkg/calc.py", "z\na\nb\nc\n", "z\na\nB\nc\n"],
      ["new.py", null, "x = 1\ny = 2\n"],
      ["old.py", "gone\ntoo\n", null],
    ]);
    expect(changes.every((c) => c.beforeKnown && c.afterKnown)).toBe(true);
  });

  it("rebuilds a rename from the old path and a copy from its source", async () => {
    const patch = diff(
      "diff --git a/src/b.py b/lib/b.py",
      "similarity index 80%",
      "rename from src/b.py",
      "rename to lib/b.py",
      "--- a/src/b.py",
      "+++ b/lib/b.py",
      "@@ -1 +1 @@",
      "-old",
      "+new",
      "diff --git a/c.py b/d.py",
      "copy from c.py",
      "copy to d.py",
    );
    const changes = await changesFromPatch(patch, memoryRepo({ "src/b.py": "old\n", "c.py": "c\n" }), "x.diff");
    expect(changes.map((c) => [c.path, c.oldPath, c.kind, c.before?.toString() ?? null, c.after?.toString()])).toEqual([
      ["lib/b.py", "src/b.py", "renamed", "old\n", "new\n"],
      ["d.py", "c.py", "created", null, "c\n"],
    ]);
  });

  it("names the diff, the repository, the file and the hunk when the patch does not fit the repository", async () => {
    await expect(
      changesFromPatch(UPDATE, memoryRepo({ "pkg/calc.py": "other\n" }), "preds.jsonl line 2"),
    ).rejects.toThrow(/^preds\.jsonl line 2 \(against memory repo\): pkg\/calc\.py: hunk 1 of 1 \(line 5 of the diff/);
    await expect(changesFromPatch(UPDATE, memoryRepo({}), "p")).rejects.toThrow(
      "pkg/calc.py: the patch changes it, but the repository has no such file",
    );
    await expect(
      changesFromPatch(MIXED, memoryRepo({ "pkg/calc.py": "a\nb\nc\n", "new.py": "" }), "p"),
    ).rejects.toThrow("new.py: the patch creates it, but the repository has it already");
    await expect(changesFromPatch(`${UPDATE}${UPDATE}`, null, "p")).rejects.toThrow(
      "p (pkg/calc.py): the diff changes this file twice",
    );
  });
});

// Real patches of real runs: OpenHands' test_result.git_patch and mini-swe-agent's submission.
describeWithTestData(
  "parseUnifiedDiff on real run patches",
  "fixtures/trajectories/openhands/multi_swe_bench_output.jsonl",
  (file) => {
    it("reads the three OpenHands git_patch diffs: one C or Pony file each, one hunk, no line lost", () => {
      const records = fs
        .readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { instance_id: string; test_result: { git_patch: string } });
      const read = records.map((r) => {
        const [only, ...rest] = parseUnifiedDiff(r.test_result.git_patch, r.instance_id);
        expect(rest).toEqual([]);
        const added = only!.hunks.flatMap((h) => h.lines).filter((l) => l.op === "+").length;
        return [r.instance_id, only!.path, only!.kind, only!.hunks.length, added];
      });
      expect(read).toEqual([
        ["ponylang__ponyc-4595", "src/libponyc/ast/parser.c", "updated", 1, 1],
        ["ponylang__ponyc-4593", "packages/cli/command_parser.pony", "updated", 1, 1],
        ["ponylang__ponyc-4588", "src/libponyc/expr/match.c", "updated", 1, 2],
      ]);
    });
  },
);

describeWithTestData(
  "parseUnifiedDiff on a real SWE-bench submission",
  "fixtures/trajectories/mini-swe-agent/django__django-16255.traj.json",
  (file) => {
    it("reads mini-swe-agent's submission for django__django-16255 and applies it to its own old lines", () => {
      const traj = JSON.parse(fs.readFileSync(file, "utf8")) as { info: { submission: string } };
      const [only] = parseUnifiedDiff(traj.info.submission, "django__django-16255");
      expect(only).toMatchObject({ path: "django/contrib/sitemaps/__init__.py", kind: "updated" });
      const hunk = only!.hunks[0]!;
      expect([hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines]).toEqual([168, 7, 168, 7]);
      const old = hunk.lines.filter((l) => l.op !== "+").map((l) => l.text);
      const before = `${"#\n".repeat(167)}${old.join("")}`;
      expect(applyPatchFile(before, only!)).toContain("            except (TypeError, ValueError):\n");
    });
  },
);
