import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { main as evaluate } from "./evaluate";
import { main as runAgents } from "./run-agents";
import { sampleDatabase } from "./test-support";

const { work, io, query } = sampleDatabase("run-agents-");
const runsDir = path.join(work, "runs");

const base = ["--benchmark", "sample", "--mock", "--runs-dir", runsDir];

// A budget, not a hidden flake: the scripted agents run the repository's tests for real (pytest
// with the host's interpreter, about 3 s a run on 2 cores), up to three times a run.
describe("run-agents CLI", { timeout: 60_000 }, () => {
  it("runs the file-tools agent in its own workspace, records and imports the run, and skips it next time", async () => {
    const first = io();
    expect(
      await runAgents([...base, "--agent", "file-tools", "--subtask", "codegen_file", "--limit", "1"], first.io),
    ).toBe(0);
    expect(first.out()).toMatch(/^1 run\(s\) with file-tools \/ mock-model: 1 completed/);
    const runs = query<{ id: string; scripted: number; status: string; step_count: number }>(
      "SELECT id, scripted, status, step_count FROM runs",
    );
    expect(runs).toHaveLength(1);
    for (const run of runs) {
      expect(run).toMatchObject({ scripted: 1, status: "completed" });
      expect(run.step_count).toBeGreaterThan(3);
      expect(fs.existsSync(path.join(runsDir, run.id, "bundle", "manifest.json"))).toBe(true);
      // Written against the instance's prepared workspace (version 4), which the run started from unchanged.
      const member = (name: string) =>
        JSON.parse(fs.readFileSync(path.join(runsDir, run.id, "bundle", name), "utf8")) as Record<string, unknown>;
      expect(member("manifest.json").version).toBe(4);
      expect(member("workspace/before.json").changes).toEqual([]);
      expect(fs.existsSync(path.join(runsDir, run.id, "workspace"))).toBe(false);
    }
    const kinds = query<{ kind: string }>("SELECT DISTINCT kind FROM trajectory_steps ORDER BY kind").map(
      (r) => r.kind,
    );
    expect(kinds).toEqual(expect.arrayContaining(["file_read", "file_write", "message", "observation", "tool_call"]));
    const again = io();
    expect(
      await runAgents([...base, "--agent", "file-tools", "--subtask", "codegen_file", "--limit", "1"], again.io),
    ).toBe(0);
    // The first instance is done: the second call takes the next one.
    expect(again.out()).toMatch(/^1 run\(s\)/);
    expect(query("SELECT id FROM runs")).toHaveLength(2);
  });

  it("drives the terminal-editor agent over the OpenAI and Anthropic protocols too", async () => {
    for (const provider of ["openai", "anthropic"]) {
      const run = io();
      const argv = [
        ...base,
        "--agent",
        "terminal-editor",
        "--provider",
        provider,
        "--subtask",
        "delete_file",
        "--limit",
        "1",
      ];
      expect(await runAgents(argv, run.io), provider).toBe(0);
      expect(run.out()).toMatch(/1 completed/);
    }
    const shells = query<{ n: number }>("SELECT count(*) AS n FROM trajectory_steps WHERE kind = 'shell'");
    expect(shells[0]!.n).toBeGreaterThan(0);
  });

  it("leaves runs the rule judge can score: a clean scripted run has no violation", async () => {
    expect(await evaluate([], io().io)).toBe(0);
    const clean = query<{ run_id: string; violated: number }>(
      `SELECT a.run_id, (SELECT count(*) FROM verdicts v WHERE v.run_id = a.run_id AND v.value = 'violated') AS violated
       FROM run_artifacts a JOIN file_contents c ON c.sha256 = a.sha256
       WHERE a.path = 'native/scripted-behaviour.json' AND CAST(c.content AS TEXT) LIKE '%"clean"%'`,
    );
    expect(clean.length).toBeGreaterThan(0);
    expect(clean.every((r) => r.violated === 0)).toBe(true);
  });

  it("refuses bad arguments", async () => {
    for (const argv of [
      ["--agent", "file-tools"],
      ["--benchmark", "sample", "--agent", "robot"],
      ["--benchmark", "nope", "--agent", "file-tools", "--mock"],
    ]) {
      await expect(runAgents(argv, io().io), argv.join(" ")).rejects.toSatisfy(
        (e: unknown) => e instanceof AppError && e.code === "INVALID_INPUT",
      );
    }
    await expect(runAgents(["--benchmark", "sample", "--agent", "file-tools"], io().io)).rejects.toThrow(
      /GEMINI_API_KEY/,
    );
    const mock = ["--benchmark", "sample", "--agent", "file-tools", "--mock"];
    for (const [argv, message] of [
      [["--shard", "4/3"], '--shard: expected i/n with 1 <= i <= n (e.g. 2/4), got "4/3"'],
      [["--push", "studio:3000"], '--push: expected an http:// or https:// URL, got "studio:3000"'],
      [["--queue", "http://redis"], '--queue: expected a redis:// or rediss:// URL, got "http://redis"'],
      [["--token", "t".repeat(20)], "--token goes with --push"],
      [["--push", "http://127.0.0.1:1"], "--push needs the studio's token: --token or $STUDIO_INGEST_TOKEN"],
      [
        ["--push", "http://127.0.0.1:1", "--token", "t".repeat(20), "--queue", "redis://127.0.0.1:1"],
        "--queue and --push do not go together: a queue's workers push",
      ],
    ] as const) {
      await expect(runAgents([...mock, ...argv], io().io), argv.join(" ")).rejects.toThrow(message);
    }
  });
});
