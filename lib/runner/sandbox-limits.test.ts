/**
 * Resource limits that hold against a hostile command, on real processes: /tmp and /dev/shm are
 * bounded and count as memory, a fork loop stops at the process limit, the disk quota covers the
 * workspace and HOME; each is reported with its reason and nothing is left running or mounted.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bubblewrapAvailable, createSandbox, type CommandLimits, type ProcessSandbox } from "./sandbox";
import { diskUsageBytes } from "./sandbox-limits";

const MiB = 1024 * 1024;
const BASE: CommandLimits = { timeoutMs: 20_000, maxOutputBytes: 100_000 };
const bwrap = await bubblewrapAvailable();
const modes = [{ useBubblewrap: false }, ...(bwrap ? [{ useBubblewrap: true }] : [])];

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-limits-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function sandboxFor(name: string, useBubblewrap: boolean): Promise<ProcessSandbox> {
  const workspaceDir = path.join(root, name, "workspace");
  await fs.mkdir(workspaceDir, { recursive: true });
  return createSandbox({ workspaceDir, runDir: path.join(root, name, "run"), useBubblewrap });
}

const hostProcesses = (marker: string) =>
  execFileSync("ps", ["-eo", "args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker));

/** Per-command cgroups of this process still present (each is removed with its command). */
async function leftoverCgroups(): Promise<string[]> {
  const parents = ["/sys/fs/cgroup/misbehavior-studio", "/sys/fs/cgroup/pids/misbehavior-studio"];
  const names = await Promise.all(parents.map((p) => fs.readdir(p).catch(() => [] as string[])));
  return names.flat().filter((name) => name.startsWith(`${process.pid}-`));
}

describe.runIf(bwrap)("tmpfs limits under bubblewrap", () => {
  it("bounds /tmp and stops a command that fills it with memory_limit, the host's /tmp untouched", async () => {
    const sandbox = await sandboxFor("tmp-fill", true);
    const marker = `ms-fill-${process.pid}`;
    const result = await sandbox.run(`df -k /tmp | tail -1; head -c ${64 * MiB} /dev/zero > /tmp/${marker}`, {
      ...BASE,
      tmpfsBytes: 16 * MiB,
    });
    expect(result.output).toMatch(/^tmpfs\s+16384\s/m);
    expect(result.output).toMatch(/No space left on device/);
    expect(result.limitHit).toBe("memory_limit");
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
  });

  it("bounds /dev/shm the same way", async () => {
    const sandbox = await sandboxFor("shm-fill", true);
    const result = await sandbox.run(`head -c ${64 * MiB} /dev/zero > /dev/shm/fill`, {
      ...BASE,
      tmpfsBytes: 16 * MiB,
    });
    expect(result.output).toMatch(/No space left on device/);
    expect(result.limitHit).toBe("memory_limit");
  });

  it("counts what sits in /tmp and /dev/shm against the memory limit", async () => {
    const sandbox = await sandboxFor("tmp-memory", true);
    // Each write fits its tmpfs; together they pass the 48 MiB memory limit.
    const result = await sandbox.run(
      `head -c ${30 * MiB} /dev/zero > /tmp/a; head -c ${30 * MiB} /dev/zero > /dev/shm/b; echo written; sleep 10`,
      { ...BASE, tmpfsBytes: 40 * MiB, maxRssBytes: 48 * MiB },
    );
    expect(result.output).toContain("written");
    expect(result.limitHit).toBe("memory_limit");
    expect(result.peakRssBytes).toBeGreaterThan(48 * MiB);
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it("a command within its limits reports none", async () => {
    const sandbox = await sandboxFor("tmp-ok", true);
    const result = await sandbox.run(`head -c ${MiB} /dev/zero > /tmp/small; echo ok`, {
      ...BASE,
      tmpfsBytes: 16 * MiB,
      maxRssBytes: 256 * MiB,
      maxProcesses: 64,
      diskBytes: 64 * MiB,
    });
    expect(result.output.trim()).toBe("ok");
    expect(result.limitHit).toBeNull();
  });
});

describe.each(modes)("process and disk limits (useBubblewrap: $useBubblewrap)", ({ useBubblewrap }) => {
  const tag = useBubblewrap ? "bw" : "pg";

  it("stops a fork loop of 300 sleepers at the process limit and leaves none behind", async () => {
    const sandbox = await sandboxFor(`${tag}-fork`, useBubblewrap);
    const marker = useBubblewrap ? "301.113" : "301.117";
    const result = await sandbox.run(
      `n=0; for i in $(seq 300); do sleep ${marker} & n=$((n+1)); done; echo "started $n"; wait`,
      { ...BASE, maxProcesses: 64 },
    );
    expect(result.limitHit).toBe("process_limit");
    expect(result.timedOut).toBe(false);
    await sandbox.killAll();
    expect(hostProcesses(`sleep ${marker}`)).toEqual([]);
    expect(await leftoverCgroups()).toEqual([]);
  });

  it("stops one file written past the disk quota (RLIMIT_FSIZE) with disk_limit", async () => {
    const sandbox = await sandboxFor(`${tag}-disk-one`, useBubblewrap);
    const result = await sandbox.run(`head -c ${64 * MiB} /dev/zero > big.bin`, { ...BASE, diskBytes: 16 * MiB });
    expect(result.limitHit).toBe("disk_limit");
    expect((await fs.stat(path.join(sandbox.workspaceDir, "big.bin"))).size).toBeLessThanOrEqual(16 * MiB);
  });

  it("stops many small files in the workspace past the quota", async () => {
    const sandbox = await sandboxFor(`${tag}-disk-many`, useBubblewrap);
    const result = await sandbox.run(
      `for i in $(seq 40); do head -c ${MiB} /dev/zero > part$i; done; echo written; sleep 10`,
      { ...BASE, diskBytes: 16 * MiB },
    );
    // Each file is under the per-file cap (ulimit -f): only the polled total stops it, before or
    // after the loop ends depending on the machine's load (a busy CI machine caught it mid-loop).
    expect(result.output).not.toMatch(/File size limit exceeded/);
    expect(result.limitHit).toBe("disk_limit");
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it("counts HOME and TMPDIR in the quota too", async () => {
    const sandbox = await sandboxFor(`${tag}-disk-home`, useBubblewrap);
    const result = await sandbox.run(
      `for i in $(seq 10); do head -c ${2 * MiB} /dev/zero > "$HOME/junk$i"; head -c ${MiB} /dev/zero > "$TMPDIR/t$i"; done`,
      { ...BASE, diskBytes: 16 * MiB },
    );
    expect(result.limitHit).toBe("disk_limit");
    expect(await diskUsageBytes([sandbox.homeDir, sandbox.tmpDir])).toBeGreaterThanOrEqual(16 * MiB);
  });
});

describe("diskUsageBytes", () => {
  it("counts allocated blocks, each hard-linked file once, and tolerates a missing folder", async () => {
    const dir = path.join(root, "du");
    await fs.mkdir(path.join(dir, "sub"), { recursive: true });
    await fs.writeFile(path.join(dir, "sub", "a"), Buffer.alloc(MiB, 1));
    await fs.link(path.join(dir, "sub", "a"), path.join(dir, "b"));
    const used = await diskUsageBytes([dir, path.join(root, "missing")]);
    expect(used).toBeGreaterThanOrEqual(MiB);
    expect(used).toBeLessThan(MiB + 64 * 1024);
  });
});
