import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { changesFromPatch } from "./patch-apply";
import { openRepo } from "./repo";

let dir: string;
let first: string;

const git = (...args: string[]) =>
  execFileSync("git", ["-C", dir, ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  }).trim();
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "foreign-repo-"));
  git("init", "-q", "-b", "main");
  write("pkg/calc.py", "def mean(xs):\n    return sum(xs) / len(xs)\n");
  write("README.md", "calc\n");
  git("add", ".");
  git("commit", "-q", "-m", "first");
  first = git("rev-parse", "HEAD");
  write("pkg/calc.py", "def mean(xs):\n    return sum(xs) / max(1, len(xs))\n");
  git("commit", "-q", "-am", "second");
  // The working tree differs from both commits: a new file, a link and a FIFO that must not be read.
  write("pkg/scratch.py", "print(1)\n");
  fs.symlinkSync("/etc/hostname", path.join(dir, "pkg/link.py"));
  execFileSync("mkfifo", [path.join(dir, "pkg/pipe")]);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const PATCH = [
  "diff --git a/pkg/calc.py b/pkg/calc.py",
  "--- a/pkg/calc.py",
  "+++ b/pkg/calc.py",
  "@@ -1,2 +1,2 @@",
  " def mean(xs):",
  "-    return sum(xs) / len(xs)",
  "+    return sum(xs) / len(xs) if xs else 0.0",
  "",
].join("\n");

describe("openRepo", () => {
  it("DIR@REV reads the commit's tree with git, not the working tree", async () => {
    const repo = await openRepo(`${dir}@${first}`);
    expect(repo.describe).toBe(`git repository ${dir} at ${first.slice(0, 12)}`);
    expect(repo.listFiles()).toEqual(["README.md", "pkg/calc.py"]);
    expect((await repo.readFile("pkg/calc.py"))?.toString()).toBe("def mean(xs):\n    return sum(xs) / len(xs)\n");
    expect(await repo.readFile("pkg/scratch.py")).toBeNull();
    const [change] = await changesFromPatch(PATCH, repo, "fix.diff");
    expect(change?.after?.toString()).toBe("def mean(xs):\n    return sum(xs) / len(xs) if xs else 0.0\n");
  });

  it("DIR@REV takes a branch name or HEAD~1, and says so", async () => {
    expect((await openRepo(`${dir}@HEAD~1`)).describe).toBe(`git repository ${dir} at ${first.slice(0, 12)} (HEAD~1)`);
    expect((await openRepo(`${dir}@main`)).listFiles()).toEqual(["README.md", "pkg/calc.py"]);
  });

  it("DIR reads the working tree: regular files only, no link followed, no FIFO read, .git left out", async () => {
    const repo = await openRepo(dir);
    expect(repo.describe).toBe(`folder ${dir}`);
    expect(repo.listFiles()).toEqual(["README.md", "pkg/calc.py", "pkg/scratch.py"]);
    expect(await repo.readFile("pkg/link.py")).toBeNull();
    expect(await repo.readFile("pkg/pipe")).toBeNull();
    expect(await repo.readFile(".git/HEAD")).toBeNull();
    // The working tree holds the second commit, which this patch does not fit.
    await expect(changesFromPatch(PATCH, repo, "fix.diff")).rejects.toThrow(
      `fix.diff (against folder ${dir}): pkg/calc.py: hunk 1 of 1`,
    );
  });

  it("refuses a missing folder, an unknown revision, an option-like revision and a folder that is not a repository", async () => {
    await expect(openRepo(`${dir}/nope`)).rejects.toThrow(`--repo ${dir}/nope: no such folder (write DIR or DIR@REV)`);
    await expect(openRepo(`${dir}@v9.9`)).rejects.toThrow(`--repo ${dir}@v9.9: git does not know the commit v9.9`);
    await expect(openRepo(`${dir}@--output=/tmp/x`)).rejects.toThrow('"--output=/tmp/x" is not a revision');
    await expect(openRepo(`${path.join(dir, "pkg")}@HEAD`)).resolves.toBeDefined(); // inside the repository: git finds it
    await expect(openRepo(`${os.tmpdir()}@HEAD`)).rejects.toThrow(
      /git rev-parse in .* failed: fatal: not a git repository/,
    );
  });
});

// A real DevEval repository as a working tree: a small patch to sqlitedict.py rebuilt against it.
describeWithTestData("openRepo on a real DevEval repository", "deveval/Source_Code/Database/sqlitedict", (root) => {
  it("lists the repository and rebuilds a small patch to sqlitedict.py", async () => {
    const repo = await openRepo(root);
    expect(repo.listFiles()).toContain("sqlitedict.py");
    expect(repo.listFiles().length).toBeGreaterThan(10);
    const before = (await repo.readFile("sqlitedict.py"))!.toString("utf8");
    const lines = before.split("\n");
    const at = lines.findIndex((l) => l.startsWith("def open("));
    expect(at).toBeGreaterThan(0);
    const patch = [
      "--- a/sqlitedict.py",
      "+++ b/sqlitedict.py",
      `@@ -${at + 1},1 +${at + 1},2 @@`,
      ` ${lines[at]}`,
      '+    """Opens a SqliteDict (a patched docstring)."""',
      "",
    ].join("\n");
    const [change] = await changesFromPatch(patch, repo, "deveval.diff");
    expect(change).toMatchObject({ path: "sqlitedict.py", kind: "updated", beforeKnown: true, afterKnown: true });
    expect(change!.after!.length - change!.before!.length).toBe(
      '    """Opens a SqliteDict (a patched docstring)."""\n'.length,
    );
  });
});
