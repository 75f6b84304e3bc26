import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manifestOf } from "@/lib/bundle/write";
import type { WorkspaceFile, WorkspaceFiles } from "@/lib/benchmark/workspace-files";
import { bubblewrapAvailable, createSandbox } from "./sandbox";
import { scanWorkspace } from "./workspace";
import { createWorkspaceCache, type WorkspaceSource } from "./workspace-cache";

const bwrap = await bubblewrapAvailable();
let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "workspace-cache-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const file = (text: string, mode = 0o100644): WorkspaceFile => ({ data: Buffer.from(text), mode });

function repository(): WorkspaceFiles {
  const files: WorkspaceFiles = new Map([
    ["pkg/mod.py", file("def f():\n    return 1\n")],
    ["pkg/util.py", file("X = 1\n")],
    ["pkg/sub/deep.py", file("deep = True\n")],
    ["run.sh", file("#!/bin/sh\necho hi\n", 0o100755)],
    ["link.py", file("pkg/mod.py", 0o120777)],
    ["README.md", file("# repo\n")],
  ]);
  for (let i = 0; i < 40; i++) files.set(`many/f${i}.py`, file(`x = ${i}\n`));
  return files;
}

const source = (overlay: WorkspaceSource["overlay"] = new Map()): WorkspaceSource => ({
  key: "repo1",
  base: repository(),
  overlay,
});

/** The setup of one instance: a body removed, a file deleted, a file planted in a new folder. */
const setupA = new Map<string, WorkspaceFile | null>([
  ["pkg/mod.py", file("def f():\n    pass\n")],
  ["README.md", null],
  ["planted/new.txt", file("planted\n")],
]);

async function expectExact(dir: string, before: WorkspaceFiles) {
  expect(manifestOf(await scanWorkspace(dir))).toEqual(manifestOf(before));
}

const poolSize = async (cacheRoot: string) =>
  (await fs.readdir(path.join(cacheRoot, "pool")).catch(() => [])).filter((n) => !n.endsWith(".json")).length;

describe("createWorkspaceCache", () => {
  it("materializes the snapshot with the setup applied, exactly as the returned manifest says", async () => {
    const cache = createWorkspaceCache(path.join(root, "c1"));
    const dir = path.join(root, "c1-run", "workspace");
    const before = await cache.materialize(source(setupA), dir);
    expect(before.get("pkg/mod.py")!.data.toString()).toBe("def f():\n    pass\n");
    expect(before.has("README.md")).toBe(false);
    expect(before.get("run.sh")!.mode).toBe(0o100755);
    await expectExact(dir, before);
    expect(await fs.readlink(path.join(dir, "link.py"))).toBe("pkg/mod.py");
  });

  it("builds each repository once, and rebuilds it when the cached files were edited", async () => {
    const cacheRoot = path.join(root, "c2");
    await createWorkspaceCache(cacheRoot).materialize(source(), path.join(root, "c2-a"));
    const cached = path.join(cacheRoot, "v1-repo1", "files", "pkg", "util.py");
    const built = (await fs.stat(cached)).ino;
    await createWorkspaceCache(cacheRoot).materialize(source(), path.join(root, "c2-b"));
    expect((await fs.stat(cached)).ino).toBe(built);

    await fs.writeFile(cached, "X = 'tampered'\n");
    const before = await createWorkspaceCache(cacheRoot).materialize(source(), path.join(root, "c2-c"));
    await expectExact(path.join(root, "c2-c"), before);
    expect(await fs.readFile(cached, "utf8")).toBe("X = 1\n");
  });

  it("resets a released workspace, whatever the run did to it, and hands it to the next run", async () => {
    const cacheRoot = path.join(root, "c3");
    const cache = createWorkspaceCache(cacheRoot);
    const first = path.join(root, "c3-first", "workspace");
    await cache.materialize(source(setupA), first);
    // What an agent might do: edit in place (same size), delete, chmod, plant files, folders,
    // links and a FIFO, replace a folder by a file and a file by a folder, lock a folder.
    await fs.writeFile(path.join(first, "pkg/util.py"), "X = 2\n");
    await fs.rm(path.join(first, "many/f3.py"));
    await fs.chmod(path.join(first, "run.sh"), 0o700);
    await fs.mkdir(path.join(first, "new/deeper"), { recursive: true });
    await fs.writeFile(path.join(first, "new/deeper/x.txt"), "x");
    await fs.writeFile(path.join(first, ".hidden"), "h");
    await fs.rm(path.join(first, "pkg/sub"), { recursive: true });
    await fs.writeFile(path.join(first, "pkg/sub"), "not a folder");
    await fs.rm(path.join(first, "many/f4.py"));
    await fs.mkdir(path.join(first, "many/f4.py"));
    await fs.rm(path.join(first, "link.py"));
    await fs.symlink("/etc/passwd", path.join(first, "link.py"));
    execFileSync("mkfifo", [path.join(first, "pipe")]);
    await fs.chmod(path.join(first, "many"), 0o500);

    expect(await cache.release(first)).toBe("pooled");
    expect(await poolSize(cacheRoot)).toBe(1);
    const next = path.join(root, "c3-next", "workspace");
    const setupB = new Map([["many/f0.py", file("x = 'setup b'\n")]]);
    const before = await cache.materialize(source(setupB), next);
    expect(await poolSize(cacheRoot)).toBe(0);
    await expectExact(next, before);
    expect(before.get("pkg/mod.py")!.data.toString()).toBe("def f():\n    return 1\n");
    expect((await fs.stat(path.join(next, "many"))).mode & 0o777).toBe(0o755);
  });

  it("sees an edit made right after the handover, and drops a pooled workspace edited while parked", async () => {
    const cacheRoot = path.join(root, "c4");
    const cache = createWorkspaceCache(cacheRoot);
    const first = path.join(root, "c4-first", "workspace");
    await cache.materialize(source(), first);
    await fs.writeFile(path.join(first, "pkg/util.py"), "X = 3\n");
    expect(await cache.release(first)).toBe("pooled");
    const parked = (await fs.readdir(path.join(cacheRoot, "pool"))).find((n) => !n.endsWith(".json"))!;
    expect(await fs.readFile(path.join(cacheRoot, "pool", parked, "pkg/util.py"), "utf8")).toBe("X = 1\n");

    // Past the kernel's timestamp granularity (one clock tick): an edit within it may carry the stamp's time.
    await new Promise((resolve) => setTimeout(resolve, 30));
    await fs.writeFile(path.join(cacheRoot, "pool", parked, "pkg/util.py"), "X = 4\n");
    const next = path.join(root, "c4-next", "workspace");
    const before = await cache.materialize(source(), next);
    await expectExact(next, before);
    expect(await poolSize(cacheRoot)).toBe(0);
  });

  it("removes a workspace it did not hand out, and refuses setup paths through a symlink", async () => {
    const cache = createWorkspaceCache(path.join(root, "c5"));
    const stranger = path.join(root, "c5-stranger");
    await fs.mkdir(stranger);
    expect(await cache.release(stranger)).toBe("removed");
    await expect(fs.access(stranger)).rejects.toThrow();
    const base = new Map([["out", file(root, 0o120777)]]);
    const through = { key: "sym", base, overlay: new Map([["out/planted", file("x")]]) };
    await expect(cache.materialize(through, path.join(root, "c5-run"))).rejects.toThrow(/through a symlink/);
    await expect(fs.access(path.join(root, "planted"))).rejects.toThrow();
  });

  it.runIf(bwrap)("is out of a sandboxed command's reach when hidden", async () => {
    const cacheRoot = path.join(root, "c6");
    const cache = createWorkspaceCache(cacheRoot);
    const workspaceDir = path.join(root, "c6-run", "workspace");
    await cache.materialize(source(setupA), workspaceDir);
    const sandbox = await createSandbox({ workspaceDir, runDir: path.join(root, "c6-run"), hide: [cacheRoot] });
    const result = await sandbox.run(
      `ls -A ${cacheRoot} 2>/dev/null | wc -l; echo x > pkg/mod.py; echo y > ${cacheRoot}/v1-repo1/files/pkg/mod.py`,
      { timeoutMs: 5_000, maxOutputBytes: 10_000 },
    );
    await sandbox.killAll();
    expect(result.output.trim().split("\n")[0]).toBe("0");
    const cached = await fs.readFile(path.join(cacheRoot, "v1-repo1", "files", "pkg", "mod.py"), "utf8");
    expect(cached).toBe("def f():\n    return 1\n");
  });
});
