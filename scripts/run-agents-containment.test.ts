/**
 * Agents are untrusted: a scripted agent (the mock model server, over the Gemini protocol) that
 * wipes its workspace, writes outside it, forks sleeping processes, fills /tmp, /dev/shm or the
 * disk, or never stops is contained, stopped at its limit and recorded with the right reason, and
 * the benchmark's source is untouched.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/db/client";
import { getInstance } from "@/db/queries/benchmarks";
import { instanceWorkspaceSource } from "@/db/queries/instance-workspace";
import { startMockModelServer, scriptFromTurns, type MockModelServer } from "@/lib/llm/mock-server";
import { createChatProvider } from "@/lib/llm/providers";
import type { ScriptedTurn } from "@/lib/llm/mock-server";
import type { AgentConfig } from "@/lib/bundle/schema";
import { bubblewrapAvailable } from "@/lib/runner/sandbox";
import { runInstance } from "@/lib/runner/run-instance";
import { createWorkspaceCache } from "@/lib/runner/workspace-cache";
import { saveSampleBenchmark } from "./test-support";

const SOURCE = path.resolve("data/sample-corpus/Source_Code");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "containment-"));
/** Workspaces come as run-agents makes them: from the cache, which the agent cannot see. */
const workspaces = createWorkspaceCache(path.join(work, "cache"));
let db: Db;
let server: MockModelServer;
let turns: ScriptedTurn[] = [];
let instanceId: string;

function treeDigest(dir: string): string {
  const hash = createHash("sha256");
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const full = path.join(d, name);
      const stat = fs.lstatSync(full);
      hash.update(`${path.relative(dir, full)}\0${stat.mode}\0`);
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile()) hash.update(fs.readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest("hex");
}

const sourceBefore = treeDigest(SOURCE);

beforeAll(async () => {
  db = createDb(path.join(work, "studio.db"));
  const built = await saveSampleBenchmark(db, SOURCE);
  instanceId = built.instances.find((i) => i.instance.subtask === "codegen_file")!.instance.id;
  server = await startMockModelServer({ script: (c) => scriptFromTurns(turns)(c) });
});
afterAll(async () => {
  await server.close();
  db.$client.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const bash = (command: string): ScriptedTurn => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

async function runScripted(
  name: string,
  script: ScriptedTurn[],
  limits: AgentConfig["limits"] = {},
  commandTimeoutMs = 2_000,
) {
  turns = script;
  const detail = getInstance(db, instanceId)!;
  const provider = createChatProvider({
    provider: "gemini",
    apiKey: "mock-key",
    baseUrl: server.url,
    timeoutMs: 10_000,
  });
  return runInstance({
    runId: `containment-${name}`,
    instance: detail.instance,
    agent: {
      name: "terminal-editor / mock-model",
      framework: "terminal-editor",
      frameworkVersion: "builtin-1",
      model: "mock-model",
      provider: "gemini",
      tools: [],
      guidelines: null,
      limits: { maxSteps: 10, wallTimeSeconds: 60, maxOutputBytes: 100_000, ...limits },
      options: {},
    },
    runDir: path.join(work, "runs", name),
    materialize: (dir) => workspaces.materialize(instanceWorkspaceSource(db, instanceId), dir),
    provider,
    scripted: true,
    commandTimeoutMs,
    hide: [path.resolve("."), workspaces.root],
  });
}

const hostProcesses = (marker: string) =>
  execFileSync("ps", ["-eo", "args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"));

describe.runIf(await bubblewrapAvailable())("containment of a scripted agent", () => {
  it("rm -rf of the workspace, the source corpus and HOME only empties the run's own copy", async () => {
    const record = await runScripted("rm", [
      bash(`rm -rf ./* ./.[!.]* ${SOURCE} ${path.resolve(".")}/data ~/* /tmp/* 2>&1; echo done`),
      { text: "Cleaned up." },
    ]);
    expect(record.manifest).toMatchObject({ status: "completed", exitReason: "finished" });
    expect(record.before.size).toBeGreaterThan(0);
    expect(record.after.size).toBe(0);
    expect(treeDigest(SOURCE)).toBe(sourceBefore);
    expect(fs.existsSync(path.resolve("data/sample-corpus/data.jsonl"))).toBe(true);
  });

  it("writes outside the workspace never reach the host", async () => {
    const marker = `outside-${process.pid}`;
    const record = await runScripted("outside", [
      bash(
        `echo x > /tmp/${marker}; echo x > ${path.resolve(".")}/${marker}; echo x > /etc/${marker}; echo x > ${SOURCE}/${marker}; echo status $?`,
      ),
      { text: "Done." },
    ]);
    expect(record.manifest.exitReason).toBe("finished");
    for (const p of [`/tmp/${marker}`, path.resolve(marker), `/etc/${marker}`, path.join(SOURCE, marker)])
      expect(fs.existsSync(p), p).toBe(false);
    expect(treeDigest(SOURCE)).toBe(sourceBefore);
  });

  it("forked sleeping processes are killed with the run and recorded in the environment snapshot", async () => {
    const record = await runScripted("fork", [
      bash("(sleep 4242 &) ; setsid sleep 4243 & nohup sleep 4244 >/dev/null 2>&1 & echo forked"),
      { text: "Started background work." },
    ]);
    expect(record.manifest.exitReason).toBe("finished");
    expect(hostProcesses("sleep 424")).toEqual([]);
  });

  it("a model that never stops is stopped at the step limit; a command that never ends at its timeout", async () => {
    const forever = Array.from({ length: 50 }, () => bash("while true; do :; done"));
    const record = await runScripted("forever", forever, { maxSteps: 3 });
    expect(record.manifest).toMatchObject({ status: "failed", exitReason: "step_limit" });
    const shells = record.steps.filter((s) => s.kind === "shell");
    expect(shells.length).toBe(3);
    expect(shells.every((s) => s.kind === "shell" && s.timedOut)).toBe(true);
    expect(hostProcesses("while true")).toEqual([]);
  }, 30_000);

  it("a run past its wall time is stopped and recorded as timeout", async () => {
    const slow = Array.from({ length: 50 }, () => bash("sleep 1.5"));
    const record = await runScripted("wall", slow, { maxSteps: 50, wallTimeSeconds: 2 });
    expect(record.manifest).toMatchObject({ status: "failed", exitReason: "timeout" });
  }, 30_000);

  const MiB = 1024 * 1024;
  /** The run ended at `reason` right after the hostile command: no further model turn. */
  const expectStoppedAt = (record: Awaited<ReturnType<typeof runScripted>>, reason: string) => {
    expect(record.manifest).toMatchObject({ status: "failed", exitReason: reason });
    expect(record.manifest.usage.modelCalls).toBe(1);
    expect(record.steps.filter((s) => s.kind === "shell")).toHaveLength(1);
  };

  it("an agent filling /tmp past its bound (the memory limit) is stopped with memory_limit", async () => {
    const marker = `fill-${process.pid}`;
    const record = await runScripted(
      "tmp-fill",
      [bash(`head -c ${256 * MiB} /dev/zero > /tmp/${marker}; echo written`), { text: "Done." }],
      { memoryBytes: 128 * MiB },
    );
    expectStoppedAt(record, "memory_limit");
    expect(record.manifest.error).toMatch(/memory limit of 128 MiB/);
    expect(fs.existsSync(`/tmp/${marker}`)).toBe(false);
  });

  it("an agent filling /dev/shm is stopped with memory_limit", async () => {
    const record = await runScripted(
      "shm-fill",
      [bash(`head -c ${256 * MiB} /dev/zero > /dev/shm/fill; echo written`), { text: "Done." }],
      { memoryBytes: 128 * MiB },
    );
    expectStoppedAt(record, "memory_limit");
  });

  it("an agent writing past the disk quota in its workspace is stopped with disk_limit", async () => {
    const record = await runScripted(
      "disk-workspace",
      [bash(`head -c ${96 * MiB} /dev/zero > big.bin`), { text: "Done." }],
      {
        diskBytes: 32 * MiB,
      },
    );
    expectStoppedAt(record, "disk_limit");
    expect(record.manifest.error).toMatch(/disk quota of 32 MiB/);
    expect(record.after.get("big.bin")?.data.length).toBeLessThanOrEqual(32 * MiB);
  });

  it("an agent filling HOME past the disk quota is stopped with disk_limit", async () => {
    const record = await runScripted(
      "disk-home",
      [bash(`for i in $(seq 24); do head -c ${2 * MiB} /dev/zero > ~/junk$i; done; sleep 5`), { text: "Done." }],
      { diskBytes: 32 * MiB },
    );
    expectStoppedAt(record, "disk_limit");
  });

  it("a fork loop of 300 sleepers is stopped at the default process limit, none left running", async () => {
    // Forking 256 sleepers takes this machine 1-3 s (4-9 ms a fork): the command gets 20 s, so the
    // limit, not the command's timeout, is what stops it.
    const record = await runScripted(
      "fork-loop",
      [bash("for i in $(seq 300); do sleep 4250 & done; echo forked; wait"), { text: "Done." }],
      {},
      20_000,
    );
    expectStoppedAt(record, "process_limit");
    expect(record.manifest.error).toMatch(/limit of 256 processes/);
    expect(hostProcesses("sleep 4250")).toEqual([]);
  });
});
