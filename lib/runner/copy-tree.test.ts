import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manifestOf } from "@/lib/bundle/write";
import { copyInto, removeTree } from "./copy-tree";
import { scanWorkspace } from "./workspace";

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "copy-tree-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("copyInto", () => {
  it("copies a folder exactly (modes, hidden files, relative and absolute symlinks), sharing no inode", async () => {
    const from = path.join(root, "src");
    await fs.mkdir(path.join(from, "pkg", "many"), { recursive: true });
    await fs.writeFile(path.join(from, "pkg", "mod.py"), "def f():\n    return 1\n");
    await fs.writeFile(path.join(from, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    await fs.writeFile(path.join(from, ".env"), "hidden");
    await fs.symlink("pkg/mod.py", path.join(from, "link.py"));
    await fs.symlink("/etc/passwd", path.join(from, "outside"));
    for (let i = 0; i < 300; i++) await fs.writeFile(path.join(from, "pkg", "many", `f${i}.py`), `x = ${i}\n`);
    const to = path.join(root, "out");
    await fs.mkdir(to);
    await copyInto(from, to);
    expect(manifestOf(await scanWorkspace(to))).toEqual(manifestOf(await scanWorkspace(from)));
    expect(await fs.readlink(path.join(to, "outside"))).toBe("/etc/passwd");
    await fs.writeFile(path.join(to, "pkg", "mod.py"), "changed");
    expect(await fs.readFile(path.join(from, "pkg", "mod.py"), "utf8")).toBe("def f():\n    return 1\n");
  });

  it("leaves out FIFOs and sockets instead of failing", async () => {
    const from = path.join(root, "fifo");
    await fs.mkdir(from);
    await fs.writeFile(path.join(from, "a.txt"), "a");
    execFileSync("mkfifo", [path.join(from, "pipe")]);
    const to = path.join(root, "fifo-out");
    await fs.mkdir(to);
    await copyInto(from, to);
    expect(await fs.readdir(to)).toEqual(["a.txt"]);
  });
});

describe("removeTree", () => {
  it("removes a folder without following its symlinks, and accepts a missing one", async () => {
    const keep = path.join(root, "keep.txt");
    await fs.writeFile(keep, "k");
    const dir = path.join(root, "doomed");
    await fs.mkdir(path.join(dir, "sub"), { recursive: true });
    await fs.symlink(root, path.join(dir, "sub", "up"));
    await removeTree(dir);
    await expect(fs.access(dir)).rejects.toThrow();
    expect(await fs.readFile(keep, "utf8")).toBe("k");
    await removeTree(dir);
  });
});
