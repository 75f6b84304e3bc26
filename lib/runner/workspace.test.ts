import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manifestOf } from "@/lib/bundle/write";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { scanWorkspace, writeWorkspace } from "./workspace";

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "workspace-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function sampleFolder(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, "pkg", "__pycache__"), { recursive: true });
  await fs.mkdir(path.join(dir, "empty"));
  await fs.writeFile(path.join(dir, "pkg", "mod.py"), "def f():\n    return 1\n");
  await fs.writeFile(path.join(dir, "pkg", "__pycache__", "mod.cpython-311.pyc"), Buffer.from([0, 1, 2, 255]));
  await fs.writeFile(path.join(dir, "run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
  await fs.writeFile(path.join(dir, "secret.txt"), "s", { mode: 0o600 });
  await fs.chmod(path.join(dir, "secret.txt"), 0o600);
  await fs.symlink("pkg/mod.py", path.join(dir, "link.py"));
  await fs.symlink("/etc/passwd", path.join(dir, "outside"));
  await fs.symlink("missing", path.join(dir, "dangling"));
}

describe("scanWorkspace", () => {
  it("records every file with content and mode, symlinks by target, caches included", async () => {
    const dir = path.join(root, "scan");
    await sampleFolder(dir);
    const files = await scanWorkspace(dir);
    expect([...files.keys()]).toEqual([
      "dangling",
      "link.py",
      "outside",
      "pkg/__pycache__/mod.cpython-311.pyc",
      "pkg/mod.py",
      "run.sh",
      "secret.txt",
    ]);
    expect(files.get("run.sh")!.mode).toBe(0o100755);
    expect(files.get("secret.txt")!.mode).toBe(0o100600);
    expect(files.get("pkg/mod.py")!.data.toString()).toBe("def f():\n    return 1\n");
    expect(files.get("link.py")).toEqual({ data: Buffer.from("pkg/mod.py"), mode: 0o120777 });
    expect(files.get("outside")!.data.toString()).toBe("/etc/passwd");
    expect(manifestOf(files).files).toHaveLength(7);
  });

  it("records FIFOs as empty entries with their type", async () => {
    const dir = path.join(root, "fifo");
    await fs.mkdir(dir);
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    const files = await scanWorkspace(dir);
    expect(files.get("pipe")!.mode & 0o170000).toBe(0o010000);
    expect(files.get("pipe")!.data.length).toBe(0);
  });
});

describe("writeWorkspace", () => {
  it("round-trips a scan, modes and symlinks included", async () => {
    const dir = path.join(root, "rt-src");
    await sampleFolder(dir);
    const files = await scanWorkspace(dir);
    const out = path.join(root, "rt-out");
    expect(await writeWorkspace(out, files)).toEqual({ written: 7, skipped: [] });
    expect(manifestOf(await scanWorkspace(out))).toEqual(manifestOf(files));
    expect(await fs.readlink(path.join(out, "link.py"))).toBe("pkg/mod.py");
  });

  it("refuses a non-empty folder, unsafe paths and a file under a symlink", async () => {
    const busy = path.join(root, "busy");
    await fs.mkdir(busy);
    await fs.writeFile(path.join(busy, "x"), "");
    await expect(writeWorkspace(busy, new Map())).rejects.toThrow(/not empty/);
    const escape: WorkspaceFiles = new Map([["../x", { data: Buffer.from("x"), mode: 0o100644 }]]);
    await expect(writeWorkspace(path.join(root, "esc"), escape)).rejects.toThrow(/escapes its root/);
    const through: WorkspaceFiles = new Map([
      ["d", { data: Buffer.from(root), mode: 0o120777 }],
      ["d/planted", { data: Buffer.from("x"), mode: 0o100644 }],
    ]);
    await expect(writeWorkspace(path.join(root, "through"), through)).rejects.toThrow(/EEXIST/);
    await expect(fs.access(path.join(root, "planted"))).rejects.toThrow();
  });
});

describe("scanWorkspace on what an agent left", () => {
  it("keeps a file over the cap by size and streamed sha256, enters no linked folder, skips names a bundle cannot hold", async () => {
    const dir = path.join(root, "hostile");
    const outside = path.join(root, "outside-folder");
    await fs.mkdir(dir, { recursive: true });
    await fs.mkdir(outside, { recursive: true });
    await fs.writeFile(path.join(outside, "inner.txt"), "not the workspace's");
    const big = Buffer.alloc(3000, 1);
    await fs.writeFile(path.join(dir, "big.bin"), big);
    await fs.writeFile(path.join(dir, "small.txt"), "kept");
    await fs.writeFile(path.join(dir, "back\\slash"), "x");
    await fs.writeFile(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0x6c, 0xe9])]), "latin-1 name");
    await fs.symlink(outside, path.join(dir, "linked"));
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    const skipped: string[] = [];
    const files = await scanWorkspace(dir, {
      maxStoredFileBytes: 1000,
      onSkip: (rel, why) => skipped.push(`${rel}: ${why}`),
    });
    const sha256 = createHash("sha256").update(big).digest("hex");
    expect(files.get("big.bin")).toEqual({ data: Buffer.alloc(0), mode: 0o100644, omitted: { size: 3000, sha256 } });
    expect(files.get("small.txt")!.data.toString()).toBe("kept");
    expect(files.get("linked")).toEqual({ data: Buffer.from(outside), mode: 0o120777 });
    expect(files.get("pipe")!.mode & 0o170000).toBe(0o010000);
    expect([...files.keys()].sort()).toEqual(["big.bin", "linked", "pipe", "small.txt"]);
    expect(skipped).toEqual([
      expect.stringMatching(/^back\\slash: not recorded: the path contains a backslash/),
      expect.stringMatching(/: not recorded: its name is not UTF-8$/),
    ]);
    expect(manifestOf(files).files.find((e) => e.path === "big.bin")).toEqual({
      path: "big.bin",
      size: 3000,
      mode: 0o100644,
      sha256,
      contentOmitted: "too_large",
    });
  });
});
