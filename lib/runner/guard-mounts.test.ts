import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bubblewrapAvailable, createSandbox, type ProcessSandbox } from "./sandbox";
import { guardBreaches, MAX_BOUND_ENTRIES, planGuard } from "./guard-mounts";

const LIMITS = { timeoutMs: 5_000, maxOutputBytes: 100_000 };
const bwrap = await bubblewrapAvailable();

const FILES: Record<string, string> = {
  "README.md": "readme\n",
  "pkg/__init__.py": "",
  "pkg/target.py": "a = 1\n",
  "pkg/other.py": "b = 1\n",
  "pkg/old.py": "c = 1\n",
  "pkg/sub/deep.py": "d = 1\n",
  "lib/util.py": "e = 1\n",
};
const RULES = { mayChange: ["pkg/target.py"], expectedCreate: ["pkg/new_mod.py"], expectedDelete: ["pkg/old.py"] };

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "guard-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function workspace(name: string): Promise<string> {
  const dir = path.join(root, name, "workspace");
  for (const [file, text] of Object.entries(FILES)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  }
  return fs.realpath(dir);
}

const read = (dir: string, file: string) => fs.readFile(path.join(dir, file), "utf8");

describe("planGuard", () => {
  it("binds the workspace read-only, the folder of the expected changes writable with its entries bound back, and the may-change files writable", async () => {
    const dir = await workspace("plan");
    const plan = await planGuard(dir, { ...RULES, mayChange: ["pkg/target.py", "lib/util.py"] });
    expect(plan.writableFolders).toEqual(["pkg"]);
    expect(plan.mounts.map((m) => [m.args[0], path.relative(dir, m.target) || "."])).toEqual([
      ["--ro-bind", "."],
      ["--bind", "pkg"],
      ["--ro-bind", "pkg/__init__.py"],
      ["--ro-bind", "pkg/other.py"],
      ["--ro-bind", "pkg/sub"],
      ["--bind", "pkg/target.py"],
      ["--bind", "lib/util.py"],
    ]);
    expect(plan.gaps).toEqual([
      "pkg/old.py: expected to be deleted, so it can also be written or renamed inside its folder",
      "pkg/: new files other than the expected ones can be created here",
    ]);
  });

  it("leaves a symlink in a writable folder unbound (bwrap would follow it) and says so", async () => {
    const dir = await workspace("plan-link");
    await fs.symlink("/etc", path.join(dir, "pkg", "etc-link"));
    const plan = await planGuard(dir, RULES);
    expect(plan.mounts.some((m) => m.target.endsWith("etc-link"))).toBe(false);
    expect(plan.gaps).toContain("pkg/etc-link: a symlink in a writable folder; it can be removed or replaced");
  });

  it("leaves a folder with too many entries to bind back read-only, bound back in its writable parent", async () => {
    const dir = await workspace("plan-large");
    for (let i = 0; i <= MAX_BOUND_ENTRIES; i++) await fs.writeFile(path.join(dir, "pkg", "sub", `m${i}.py`), "");
    const plan = await planGuard(dir, {
      mayChange: [],
      expectedCreate: ["pkg/new.py", "pkg/sub/new.py"],
      expectedDelete: [],
    });
    expect(plan.writableFolders).toEqual(["pkg"]);
    expect(plan.mounts.find((m) => m.target === path.join(dir, "pkg/sub"))?.args[0]).toBe("--ro-bind");
    expect(plan.gaps[0]).toMatch(/^pkg\/sub\/: 258 entries, too many to bind back; left read-only/);
  });

  it("makes the nearest existing folder writable for a creation in a folder yet to be made", async () => {
    const dir = await workspace("plan-nested");
    const plan = await planGuard(dir, { mayChange: [], expectedCreate: ["pkg/newdir/x/mod.py"], expectedDelete: [] });
    expect(plan.writableFolders).toEqual(["pkg"]);
  });
});

describe("guardBreaches", () => {
  it("lists the changes the rules do not allow, execution caches left out", () => {
    const file = (text: string) => ({ data: Buffer.from(text), mode: 0o644 });
    const before = new Map(Object.entries(FILES).map(([p, t]) => [p, file(t)]));
    const after = new Map(before);
    after.set("pkg/target.py", file("a = 2\n"));
    after.delete("pkg/old.py");
    after.set("pkg/new_mod.py", file("n = 1\n"));
    after.set("pkg/scratch.py", file("x\n"));
    after.set("pkg/__pycache__/target.cpython-311.pyc", file("pyc"));
    after.delete("README.md");
    expect(guardBreaches(RULES, before, after)).toEqual(["README.md deleted", "pkg/scratch.py created"]);
  });
});

describe.skipIf(!bwrap)("a guarded sandbox", () => {
  let dir: string;
  let sandbox: ProcessSandbox;
  beforeAll(async () => {
    dir = await workspace("run");
    sandbox = await createSandbox({ workspaceDir: dir, runDir: path.join(root, "run", "run"), guard: RULES });
  });

  it.each([
    ["append", "echo x >> pkg/other.py", "Read-only file system"],
    ["sed -i", "sed -i s/b/B/ pkg/other.py", "Device or resource busy"],
    ["rm", "rm pkg/other.py", "Device or resource busy"],
    ["mv", "mv pkg/other.py pkg/renamed.py", "Device or resource busy"],
    ["python open(w)", `python3 -c "open('pkg/other.py', 'w').write('z')"`, "Read-only file system"],
    ["truncate", "truncate -s 0 pkg/other.py", "Read-only file system"],
    ["a file in a read-only folder", "echo x > pkg/sub/deep.py; rm -rf pkg/sub", "Read-only file system"],
    ["a file at the root", "echo x >> README.md; rm README.md", "Read-only file system"],
    ["a hard link", "ln pkg/other.py pkg/link && echo x >> pkg/link", "Invalid cross-device link"],
  ])("refuses a change outside may-change by the shell (%s)", async (_name, command, error) => {
    const result = await sandbox.run(command, LIMITS);
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain(error);
    for (const [file, text] of Object.entries(FILES)) expect(await read(dir, file)).toBe(text);
    expect((await fs.readdir(path.join(dir, "pkg"))).sort()).toEqual([
      "__init__.py",
      "old.py",
      "other.py",
      "sub",
      "target.py",
    ]);
  });

  it("refuses a new file outside the folders of the expected creations", async () => {
    const result = await sandbox.run("touch scratch.py; touch lib/scratch.py", LIMITS);
    expect(result.output).toContain("Read-only file system");
    expect(await fs.readdir(dir)).not.toContain("scratch.py");
    expect(await fs.readdir(path.join(dir, "lib"))).toEqual(["util.py"]);
  });

  it("allows the expected changes: the may-change file written in place, the expected delete and create", async () => {
    const result = await sandbox.run(
      "echo 'a = 2' > pkg/target.py && rm pkg/old.py && echo 'n = 1' > pkg/new_mod.py",
      LIMITS,
    );
    expect(result.exitCode).toBe(0);
    expect(await read(dir, "pkg/target.py")).toBe("a = 2\n");
    expect(await read(dir, "pkg/new_mod.py")).toBe("n = 1\n");
    await expect(fs.stat(path.join(dir, "pkg/old.py"))).rejects.toThrow(/ENOENT/);
  });

  it("leaves nothing mounted on the host: the workspace can be reset and removed", async () => {
    const mountinfo = await fs.readFile("/proc/self/mountinfo", "utf8");
    expect(mountinfo).not.toContain(dir);
    expect(execFileSync("findmnt", ["-rn", "-o", "TARGET"], { encoding: "utf8" })).not.toContain(dir);
    await fs.writeFile(path.join(dir, "pkg/other.py"), "reset\n");
    await fs.rm(dir, { recursive: true });
  });
});

describe.skipIf(!bwrap)("an unguarded sandbox on the same workspace", () => {
  it("lets the shell change any file", async () => {
    const dir = await workspace("free");
    const sandbox = await createSandbox({ workspaceDir: dir, runDir: path.join(root, "free", "run") });
    const result = await sandbox.run("echo x >> pkg/other.py && rm README.md && touch scratch.py", LIMITS);
    expect(result.exitCode).toBe(0);
    expect(await read(dir, "pkg/other.py")).toBe("b = 1\nx\n");
  });
});

describe("a guard without bubblewrap", () => {
  it("is refused rather than silently not enforced", async () => {
    const dir = await workspace("no-bwrap");
    await expect(
      createSandbox({
        workspaceDir: dir,
        runDir: path.join(root, "no-bwrap", "run"),
        useBubblewrap: false,
        guard: RULES,
      }),
    ).rejects.toThrow(/needs bubblewrap/);
  });
});
