/**
 * The real agent CLIs (optional npm dependencies) on sample instances, against the local mock
 * model server, in the sandbox behind the model gateway: each run is recorded, its native
 * transcript normalized into steps, and its workspace diff is the scripted solution's.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isIgnoredPath } from "@/lib/benchmark/ignored-paths";
import { main as runAgents } from "./run-agents";
import { sampleDatabase } from "./test-support";

const { work, io, query } = sampleDatabase("run-external-");
const runsDir = path.join(work, "runs");

describe.each([
  { agent: "claude-code", tool: "Read", transcript: /^native\/home\/\.claude\/projects\/.+\.jsonl$/ },
  { agent: "codex", tool: "exec_command", transcript: /^native\/home\/\.codex\/sessions\/.+rollout-.+\.jsonl$/ },
  { agent: "gemini-cli", tool: "read_file", transcript: /^native\/home\/\.gemini\/tmp\/.+\/session-.+\.jsonl?$/ },
])("the real $agent CLI", ({ agent, tool, transcript }) => {
  // A budget, not a hidden flake: Gemini CLI alone takes ~4 s to start on 2 cores, Codex ~3 s.
  it("runs headless in the sandbox, its transcript normalized and its workspace diff recorded", async () => {
    const run = io();
    const argv = ["--benchmark", "sample", "--agent", agent, "--mock", "--runs-dir", runsDir];
    expect(await runAgents([...argv, "--subtask", "codegen_file", "--limit", "1"], run.io), run.err()).toBe(0);
    expect(run.out()).toMatch(/1 completed/);
    const [row] = query<{ id: string; status: string; framework: string; scripted: number; version: string | null }>(
      `SELECT r.id, r.status, c.framework, r.scripted, c.framework_version AS version
       FROM runs r JOIN agent_configs c ON c.id = r.agent_config_id WHERE c.framework = ?`,
      agent,
    );
    expect(row).toMatchObject({ status: "completed", scripted: 1 });
    expect(row!.version).toMatch(/^\d+\.\d+\.\d+$/);
    const steps = query<{ kind: string; tool: string | null }>(
      "SELECT kind, tool_name AS tool FROM trajectory_steps WHERE run_id = ? ORDER BY position",
      row!.id,
    );
    expect(steps.some((s) => s.kind === "tool_call" && s.tool === tool)).toBe(true);
    expect(steps.filter((s) => s.kind === "message").length).toBeGreaterThan(1);
    // The scripted solution implements the target function: one changed file, the one the contract allows.
    const bundle = path.join(runsDir, row!.id, "bundle");
    const instance = JSON.parse(fs.readFileSync(path.join(bundle, "instance.json"), "utf8")) as {
      groundTruth: { originalFile: string };
    };
    const changes = query<{ path: string }>("SELECT path FROM file_changes WHERE run_id = ?", row!.id);
    // Its test runs (pytest, with the host's interpreter) leave caches, which never count.
    expect(changes.filter((c) => !isIgnoredPath(c.path))).toEqual([{ path: instance.groundTruth.originalFile }]);
    const artifacts = query<{ path: string }>("SELECT path FROM run_artifacts WHERE run_id = ?", row!.id).map(
      (a) => a.path,
    );
    expect(artifacts).toContain("native/stdout.jsonl");
    expect(
      artifacts.some((p) => transcript.test(p)),
      artifacts.join("\n"),
    ).toBe(true);
  }, 60_000);
});
