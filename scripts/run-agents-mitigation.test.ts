import path from "node:path";
import { describe, expect, it } from "vitest";
import type { MitigationPlan } from "@/lib/codekit/mitigation";
import { main as runAgents } from "./run-agents";
import { sampleDatabase } from "./test-support";

const { work, io, query } = sampleDatabase("run-agents-mitigation-");
const runsDir = path.join(work, "runs");
const base = ["--benchmark", "sample", "--mock", "--runs-dir", runsDir, "--agent", "file-tools", "--limit", "1"];

const runsOf = (arm: string) =>
  query<{ id: string; mitigation: string | null; config_arm: string }>(
    `SELECT r.id, r.mitigation, a.mitigation AS config_arm FROM runs r JOIN agent_configs a ON a.id = r.agent_config_id
     WHERE a.mitigation = ?`,
    arm,
  );
const toolCalls = (runId: string) =>
  query<{ tool_name: string }>(
    "SELECT tool_name FROM trajectory_steps WHERE run_id = ? AND kind = 'tool_call' ORDER BY position",
    runId,
  ).map((r) => r.tool_name);
const systemPrompt = (runId: string) =>
  query<{ text: string }>(
    "SELECT text FROM trajectory_steps WHERE run_id = ? AND kind = 'message' AND role = 'system'",
    runId,
  )[0]!.text;

// The scripted agents run the repository's code for real: a budget, not a hidden flake.
describe("run-agents --mitigation", { timeout: 90_000 }, () => {
  it("gives each arm its own configuration, records the plan with the run, and the agent uses the tools it is offered", async () => {
    for (const arm of ["none", "rules", "tools", "codekit"]) {
      const run = io();
      expect(await runAgents([...base, "--subtask", "codegen_file", "--mitigation", arm], run.io), run.err()).toBe(0);
    }
    const [none] = runsOf("none");
    expect(none!.mitigation).toBeNull();
    expect(systemPrompt(none!.id)).not.toContain("Code-KIT");
    expect(toolCalls(none!.id)).not.toContain("modify_function");

    const [rules] = runsOf("rules");
    const rulesPlan = JSON.parse(rules!.mitigation!) as MitigationPlan;
    expect(rulesPlan).toMatchObject({ arm: "rules", tools: [], guard: false, selector: null });
    expect(rulesPlan.rules).toHaveLength(11);
    expect(systemPrompt(rules!.id)).toContain("Rules for this task (Code-KIT):");

    const [tools] = runsOf("tools");
    const toolsPlan = JSON.parse(tools!.mitigation!) as MitigationPlan;
    expect(toolsPlan.tools).toHaveLength(5);
    expect(toolCalls(tools!.id)).toEqual(expect.arrayContaining(["analyze_dependencies", "modify_function"]));

    const [codekit] = runsOf("codekit");
    const plan = JSON.parse(codekit!.mitigation!) as MitigationPlan;
    // The scripted model answers the selector with the deterministic choice for the subtask.
    expect(plan.selector).toMatchObject({ source: "model", model: "mock-model", error: null, cached: false });
    expect(plan.tools).toEqual(["analyze_dependencies", "modify_function"]);
    expect(plan.rules.map((r) => r.metric)).toContain("signature");
    const modify = query<{ text: string }>(
      `SELECT o.text FROM trajectory_steps c JOIN trajectory_steps o ON o.run_id = c.run_id AND o.call_id = c.call_id
       AND o.kind = 'observation' WHERE c.run_id = ? AND c.tool_name = 'modify_function'`,
      codekit!.id,
    );
    expect(modify.at(-1)!.text).toMatch(/^Replaced the body of /);
    // The selector's answer is kept in the database's response cache.
    expect(query<{ n: number }>("SELECT count(*) AS n FROM judge_cache")[0]!.n).toBe(1);
  });

  it("refuses an unknown arm, naming the choices", async () => {
    await expect(runAgents([...base, "--mitigation", "everything"], io().io)).rejects.toThrow(
      '--mitigation: expected one of none, rules, tools, codekit, guard, got "everything"',
    );
  });
});
