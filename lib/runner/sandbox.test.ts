import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bubblewrapAvailable, createSandbox, type ProcessSandbox } from "./sandbox";
import { hostView } from "@/lib/util/sandbox-view";

const LIMITS = { timeoutMs: 3_000, maxOutputBytes: 100_000 };
const bwrap = await bubblewrapAvailable();
const modes = [{ useBubblewrap: false }, ...(bwrap ? [{ useBubblewrap: true }] : [])];

function hostProcessesMatching(marker: string): string[] {
  return execFileSync("ps", ["-eo", "args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker));
}

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function sandboxFor(name: string, useBubblewrap: boolean, allowNetwork = false): Promise<ProcessSandbox> {
  const workspaceDir = path.join(root, name, "workspace");
  await fs.mkdir(workspaceDir, { recursive: true });
  return createSandbox({ workspaceDir, runDir: path.join(root, name, "run"), useBubblewrap, allowNetwork });
}

describe.each(modes)("sandbox (useBubblewrap: $useBubblewrap)", ({ useBubblewrap }) => {
  const tag = useBubblewrap ? "bw" : "pg";

  it("runs in the workspace with HOME and TMPDIR in the run folder, and reports the exit code", async () => {
    const sandbox = await sandboxFor(`${tag}-basic`, useBubblewrap);
    expect(sandbox.isolated).toBe(useBubblewrap);
    const result = await sandbox.run('echo out; echo err >&2; pwd; echo "$HOME $TMPDIR"; exit 3', LIMITS);
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(result.outputTruncated).toBe(false);
    expect(result.output).toContain("out\n");
    expect(result.output).toContain("err\n");
    expect(result.output).toContain(`${sandbox.workspaceDir}\n`);
    expect(result.output).toContain(`${sandbox.homeDir} ${sandbox.tmpDir}`);
  });

  it("does not pass host secrets, but passes its own env", async () => {
    process.env.MS_TEST_SECRET = "hunter2";
    const sandbox = await createSandbox({
      workspaceDir: (await sandboxFor(`${tag}-env`, useBubblewrap)).workspaceDir,
      runDir: path.join(root, `${tag}-env`, "run"),
      useBubblewrap,
      env: { GIVEN: "yes" },
    });
    const result = await sandbox.run('echo "[$MS_TEST_SECRET][$GIVEN]"', LIMITS);
    delete process.env.MS_TEST_SECRET;
    expect(result.output.trim()).toBe("[][yes]");
  });

  it("kills the whole process group on timeout, children included", async () => {
    const sandbox = await sandboxFor(`${tag}-timeout`, useBubblewrap);
    const marker = useBubblewrap ? "37.113" : "37.117";
    const result = await sandbox.run(`sleep ${marker} & sleep ${marker}`, { ...LIMITS, timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.durationMs).toBeLessThan(2_000);
    expect(hostProcessesMatching(`sleep ${marker}`)).toEqual([]);
    expect(await sandbox.killAll()).toBe(0);
  });

  it("kills a command that ignores SIGTERM", async () => {
    const sandbox = await sandboxFor(`${tag}-stubborn`, useBubblewrap);
    const result = await sandbox.run("trap '' TERM; sleep 36.5; echo survived", { ...LIMITS, timeoutMs: 200 });
    expect(result.timedOut).toBe(true);
    expect(result.output).not.toContain("survived");
    expect(result.durationMs).toBeLessThan(2_000);
    expect(hostProcessesMatching("sleep 36.5")).toEqual([]);
  });

  it("cuts output at the cap and stops the command", async () => {
    const sandbox = await sandboxFor(`${tag}-cap`, useBubblewrap);
    const result = await sandbox.run("yes 0123456789", { ...LIMITS, maxOutputBytes: 10_000 });
    expect(result.outputTruncated).toBe(true);
    expect(Buffer.byteLength(result.output)).toBe(10_000);
    expect(result.timedOut).toBe(false);
  });

  it("limits memory with ulimit -v", async () => {
    const sandbox = await sandboxFor(`${tag}-mem`, useBubblewrap);
    const limits = { ...LIMITS, memoryBytes: 64 * 1024 * 1024 };
    expect((await sandbox.run("ulimit -v", limits)).output.trim()).toBe("65536");
    const result = await sandbox.run(`python3 -c 'b = bytearray(200 * 1024 * 1024)'`, limits);
    expect(result.exitCode).not.toBe(0);
  });
});

describe("sandbox without bubblewrap", () => {
  it("leaves background processes running until killAll, which reports them", async () => {
    const sandbox = await sandboxFor("pg-leftover", false);
    expect(sandbox.mode).toBe("process-group");
    expect(sandbox.description).toMatch(/no bubblewrap/);
    const result = await sandbox.run("sleep 38.117 >/dev/null 2>&1 & echo started", LIMITS);
    expect(result.output.trim()).toBe("started");
    expect(hostProcessesMatching("sleep 38.117")).toHaveLength(1);
    expect(sandbox.processGroups()).toHaveLength(1);
    expect(await sandbox.killAll()).toBe(1);
    expect(hostProcessesMatching("sleep 38.117")).toEqual([]);
  });
});

describe("sandbox with bubblewrap", () => {
  it.skipIf(!bwrap)("refuses writes outside the workspace and run folder; /tmp is private", async () => {
    const sandbox = await sandboxFor("bw-writes", true);
    const hostFile = `/tmp/ms-sandbox-${process.pid}`;
    const result = await sandbox.run(
      `touch /etc/ms-x; echo "etc=$?"; touch ${hostFile}; echo "tmp=$?"; ls ${hostFile}; ` +
        `touch inside "$HOME/h" "$TMPDIR/t"; echo "ws=$?"`,
      LIMITS,
    );
    expect(result.output).toContain("etc=1");
    expect(result.output).toContain("tmp=0");
    expect(result.output).toContain("ws=0");
    expect(existsSync("/etc/ms-x")).toBe(false);
    expect(existsSync(hostFile)).toBe(false);
    expect(existsSync(path.join(sandbox.workspaceDir, "inside"))).toBe(true);
    expect(existsSync(path.join(sandbox.homeDir, "h"))).toBe(true);
    expect(existsSync(path.join(sandbox.tmpDir, "t"))).toBe(true);
  });

  it.skipIf(!bwrap)("has no network by default, and the host's network when allowed", async () => {
    const probe = "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ,";
    const closed = await (await sandboxFor("bw-net", true)).run(probe, LIMITS);
    expect(closed.output).toBe("lo,");
    const open = await (await sandboxFor("bw-net-open", true, true)).run(probe, LIMITS);
    expect(open.output).not.toBe("lo,");
  });

  it.skipIf(!bwrap)("runs commands without capabilities, so a hidden folder cannot be unmounted", async () => {
    const hidden = path.join(root, "bw-hidden-project");
    await fs.mkdir(hidden);
    await fs.writeFile(path.join(hidden, "answers.txt"), "secret");
    const workspaceDir = path.join(root, "bw-caps", "workspace");
    await fs.mkdir(workspaceDir, { recursive: true });
    const sandbox = await createSandbox({ workspaceDir, runDir: path.join(root, "bw-caps", "run"), hide: [hidden] });
    // Probes that only touch the sandbox's own namespaces (never the clock or the host's mounts).
    const result = await sandbox.run(
      `grep CapEff /proc/self/status; umount ${hidden}; echo "umount=$?"; ls -A ${hidden} | wc -l; mknod dev b 8 0; echo "mknod=$?"`,
      LIMITS,
    );
    expect(result.output).toMatch(/CapEff:\s+0{16}/);
    expect(result.output).toMatch(/umount=[1-9]/);
    expect(result.output).toMatch(/^0$/m);
    expect(result.output).toMatch(/mknod=[1-9]/);
  });

  it.skipIf(!bwrap)(
    "shows only the allow-listed host: no /etc/shadow, /root, /home, project or other folders",
    async () => {
      const secret = path.join(root, "bw-view-outside");
      await fs.mkdir(secret);
      await fs.writeFile(path.join(secret, "key"), "secret");
      const sandbox = await sandboxFor("bw-view", true);
      const view = await hostView();
      // /root holds nothing but the way to an interpreter bound from under it (a pyenv Python here).
      const allowedInRoot = new Set(view.shown.filter((p) => p.startsWith("/root/")).map((p) => p.split("/")[2]));
      const probes = {
        shadow: "/etc/shadow",
        gshadow: "/etc/gshadow",
        sudoers: "/etc/sudoers",
        ssh: "/root/.ssh",
        bashrc: "/root/.bashrc",
        home: "/home",
        project: process.cwd(),
        outside: secret,
      };
      const script = Object.entries(probes)
        .map(([name, file]) => `test -e ${file} && echo "${name}=visible" || echo "${name}=absent"`)
        .join("; ");
      const result = await sandbox.run(`${script}; echo "root=$(ls -A /root 2>/dev/null | tr '\\n' ' ')"`, LIMITS);
      for (const name of Object.keys(probes)) expect(result.output, name).toContain(`${name}=absent`);
      const inRoot = /root=(.*)/.exec(result.output)?.[1]?.trim().split(" ").filter(Boolean) ?? [];
      expect(inRoot.filter((name) => !allowedInRoot.has(name))).toEqual([]);
    },
  );

  it.skipIf(!bwrap)("covers a hidden folder inside the view with an empty read-only tmpfs", async () => {
    const workspaceDir = path.join(root, "bw-hide-inside", "workspace");
    const answers = path.join(workspaceDir, "answers");
    await fs.mkdir(answers, { recursive: true });
    await fs.writeFile(path.join(answers, "key.txt"), "secret");
    const sandbox = await createSandbox({
      workspaceDir,
      runDir: path.join(root, "bw-hide-inside", "run"),
      hide: [answers],
    });
    const result = await sandbox.run(`ls -A answers | wc -l; touch answers/x 2>/dev/null; echo "touch=$?"`, LIMITS);
    expect(result.output).toMatch(/^0$/m);
    expect(result.output).toMatch(/touch=[1-9]/);
    expect(await fs.readFile(path.join(answers, "key.txt"), "utf8")).toBe("secret");
  });

  it.skipIf(!bwrap)("runs the host's python3 and node, and the usual tools, inside the view", async () => {
    const host = execFileSync("python3", ["-c", "import sys; print(sys.prefix)"], { encoding: "utf8" }).trim();
    const sandbox = await sandboxFor("bw-tools", true);
    const result = await sandbox.run(
      `python3 -c "import sys, ssl, sqlite3, json; print(sys.prefix)"; node -e "console.log('node ok')"; ` +
        `git --version >/dev/null && echo git ok; awk 'BEGIN { print "awk ok" }'; whoami`,
      LIMITS,
    );
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toContain(`${host}\n`);
    expect(result.output).toContain("node ok");
    expect(result.output).toContain("git ok");
    expect(result.output).toContain("awk ok");
  });

  it.skipIf(!bwrap)("takes background processes down with the command (own PID namespace)", async () => {
    const sandbox = await sandboxFor("bw-bg", true);
    const result = await sandbox.run("sleep 39.113 >/dev/null 2>&1 & echo started", LIMITS);
    expect(result.output.trim()).toBe("started");
    expect(hostProcessesMatching("sleep 39.113")).toEqual([]);
    expect(await sandbox.killAll()).toBe(0);
  });
});
