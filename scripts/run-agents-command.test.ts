/**
 * The generic command adapter end to end (docs/external-agents.md): the stdlib-only Python
 * reference agent (examples/python-agent) runs through run-agents in the sandbox, talking to the
 * scripted model over the OpenAI chat protocol through the gateway; and a command that writes a
 * malformed trajectory is recorded as a failed run whose error names the line and the field; command
 * agents past their memory, process or disk limit are recorded with that exit reason.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isIgnoredPath } from "@/lib/benchmark/ignored-paths";
import { bubblewrapAvailable } from "@/lib/runner/sandbox";
import { main as runAgents } from "./run-agents";
import { sampleDatabase } from "./test-support";

const { work, io, query } = sampleDatabase("run-command-");
const runsDir = path.join(work, "runs");
const REFERENCE_AGENT = "examples/python-agent/agent.json";

async function runOne(agentFile: string, subtask: string) {
  const run = io();
  const argv = ["--benchmark", "sample", "--agent", agentFile, "--mock", "--runs-dir", runsDir];
  const code = await runAgents([...argv, "--subtask", subtask, "--limit", "1"], run.io);
  return { code, out: run.out(), err: run.err() };
}

const runsOf = (name: string) =>
  query<{ id: string; status: string; exit_reason: string; error: string | null; scripted: number }>(
    `SELECT r.id, r.status, r.exit_reason, r.error, r.scripted
     FROM runs r JOIN agent_configs c ON c.id = r.agent_config_id WHERE c.name = ?`,
    name,
  );

describe.runIf(await bubblewrapAvailable())("the command adapter", () => {
  it("runs the Python reference agent: recorded, scripted, steps normalized, workspace diff exact", async () => {
    const result = await runOne(REFERENCE_AGENT, "codegen_file");
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/1 completed/);
    const [run] = runsOf("python reference agent");
    expect(run).toMatchObject({ status: "completed", exit_reason: "finished", scripted: 1, error: null });

    const steps = query<{ kind: string; tool: string | null }>(
      "SELECT kind, tool_name AS tool FROM trajectory_steps WHERE run_id = ? ORDER BY position",
      run!.id,
    );
    expect(steps[0]).toEqual({ kind: "message", tool: null });
    expect(steps.some((s) => s.kind === "tool_call" && s.tool === "bash")).toBe(true);
    expect(steps.filter((s) => s.kind === "shell").length).toBeGreaterThan(1);
    expect(steps.at(-1)!.kind).toBe("message");

    // The scripted clean solution implements the target function: exactly that file changes.
    const instance = JSON.parse(fs.readFileSync(path.join(runsDir, run!.id, "bundle", "instance.json"), "utf8")) as {
      groundTruth: { originalFile: string };
    };
    const changes = query<{ path: string; kind: string }>(
      "SELECT path, kind FROM file_changes WHERE run_id = ?",
      run!.id,
    );
    // Its test runs (pytest, with the host's interpreter) leave caches, which never count.
    expect(changes.filter((c) => !isIgnoredPath(c.path))).toEqual([
      { path: instance.groundTruth.originalFile, kind: "updated" },
    ]);

    const artifacts = query<{ path: string }>("SELECT path FROM run_artifacts WHERE run_id = ?", run!.id).map(
      (a) => a.path,
    );
    expect(artifacts).toEqual(expect.arrayContaining(["native/output/trajectory.jsonl", "native/output/result.json"]));
    const usage = query<{ model_calls: number }>("SELECT model_calls FROM runs WHERE id = ?", run!.id);
    expect(usage[0]!.model_calls).toBe(steps.filter((s) => s.kind === "tool_call").length + 1);
  }, 60_000);

  it("records a run whose trajectory has a malformed line as failed, naming the line and the field", async () => {
    const agentFile = path.join(work, "malformed.json");
    const lines = [
      { id: "s1", kind: "message", role: "assistant", text: "Looking around." },
      { id: "s2", kind: "shell", command: "ls" },
    ];
    const write = lines.map((l) => `echo '${JSON.stringify(l)}' >> "$STUDIO_OUTPUT_DIR/trajectory.jsonl"`);
    fs.writeFileSync(
      agentFile,
      JSON.stringify({ framework: "command", name: "malformed trajectory", command: write.join("; ") }),
    );
    const result = await runOne(agentFile, "delete_file");
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/0 completed, 1 failed/);
    const [run] = runsOf("malformed trajectory");
    expect(run).toMatchObject({ status: "failed", exit_reason: "error", scripted: 1 });
    expect(run!.error).toMatch(/native\/output\/trajectory\.jsonl: line 2, field "exitCode"/);
  }, 60_000);

  it("records a command agent stopped at its memory (/tmp), process or disk limit with that reason", async () => {
    const MiB = 1024 * 1024;
    const cases = [
      {
        name: "fills tmp",
        command: `head -c ${512 * MiB} /dev/zero > /tmp/fill`,
        limits: { memoryBytes: 256 * MiB },
        reason: "memory_limit",
      },
      {
        name: "fork loop",
        command: "for i in $(seq 300); do sleep 4251 & done; wait",
        limits: {},
        reason: "process_limit",
      },
      {
        name: "fills disk",
        command: `head -c ${96 * MiB} /dev/zero > big.bin`,
        limits: { diskBytes: 32 * MiB },
        reason: "disk_limit",
      },
      {
        name: "fills home",
        command: `head -c ${96 * MiB} /dev/zero > "$HOME/fill"`,
        limits: { diskBytes: 32 * MiB },
        reason: "disk_limit",
      },
    ];
    for (const c of cases) {
      const agentFile = path.join(work, `${c.reason}.json`);
      fs.writeFileSync(
        agentFile,
        JSON.stringify({ framework: "command", name: c.name, command: c.command, limits: c.limits }),
      );
      const result = await runOne(agentFile, "delete_file");
      expect(result.code, result.err).toBe(0);
      const [run] = runsOf(c.name);
      expect(run).toMatchObject({ status: "failed", exit_reason: c.reason });
      // Nothing the agent wrote stays on disk: the run folder keeps its bundle only.
      expect(fs.readdirSync(path.join(runsDir, run!.id))).toEqual(["bundle"]);
    }
    expect(fs.existsSync("/tmp/fill")).toBe(false);
  }, 60_000);
});
