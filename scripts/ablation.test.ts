import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCaptured } from "@/lib/cli/cli-io.fixture";
import { main as ablation } from "./ablation";
import { sampleDatabase } from "./test-support";

const { work, dbPath, query } = sampleDatabase("ablation-");
const env = { NODE_ENV: "test", STUDIO_DB: dbPath };
const argv = [
  ...["--benchmark", "sample", "--agent", "file-tools", "--mock", "--arms", "none,codekit"],
  ...["--subtask", "delete_file", "--limit", "1", "--runs-dir", path.join(work, "runs")],
];

// A budget, not a hidden flake: two scripted runs, their task checks (a sandbox each) and the rule judge.
describe("ablation CLI", { timeout: 120_000 }, () => {
  it("runs every arm on the same instance, checks and judges the runs, prints the table, and resumes", async () => {
    const first = await runCaptured(ablation, argv, env);
    expect(first.stderr).not.toMatch(/^error/m);
    expect(first.code).toBe(0);
    const runs = query<{ id: string; instance_id: string; mitigation: string; task: number | null }>(
      `SELECT r.id, r.instance_id, c.mitigation, r.task_completed AS task
       FROM runs r JOIN agent_configs c ON c.id = r.agent_config_id ORDER BY c.mitigation`,
    );
    expect(runs.map((r) => r.mitigation)).toEqual(["codekit", "none"]);
    expect(new Set(runs.map((r) => r.instance_id)).size).toBe(1);
    const judged = query<{ run_id: string; n: number }>(
      "SELECT run_id, count(*) AS n FROM verdicts GROUP BY run_id ORDER BY run_id",
    );
    expect(judged.map((j) => j.n)).toEqual([11, 11]);
    expect(query("SELECT run_id FROM task_checks")).toHaveLength(2);
    expect(first.stdout).toMatch(/^1 instance\(s\) of sample; every arm runs these: none, codekit$/m);
    expect(first.stdout).toMatch(/^1 instance\(s\) ran by every arm \(0 left out/m);
    expect(first.stdout).toMatch(/^ {2}codekit +average /m);
    expect(first.stdout).toMatch(/scripted: the mock model's script decides these effects/);
    const none = query<{ id: string }>("SELECT id FROM agent_configs WHERE mitigation = 'none'")[0]!;
    expect(first.stdout).toContain(`see /ablation?benchmark=sample&config=${none.id}&judge=`);

    const again = await runCaptured(ablation, argv, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^0 run\(s\) with file-tools/m);
    expect(query("SELECT id FROM runs")).toHaveLength(2);
  });

  it("refuses bad arms and an empty choice of instances with one clear line", async () => {
    const arms = await runCaptured(
      ablation,
      ["--benchmark", "sample", "--agent", "file-tools", "--arms", "none,none"],
      env,
    );
    expect(arms).toMatchObject({ code: 2 });
    expect(arms.stderr).toMatch(
      /^error: --arms: expected a comma-separated list of none, rules, tools, codekit, guard/,
    );
    const nothing = await runCaptured(ablation, ["--benchmark", "nope", "--agent", "file-tools", "--mock"], env);
    expect(nothing).toMatchObject({ code: 2 });
    expect(nothing.stderr).toBe('error: benchmark "nope" has no such instances (split eval)\n');
  });
});
