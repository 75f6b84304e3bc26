import { describe, expect, it } from "vitest";
import { commandOf, JobParamsSchema, progressOf } from "./schema";

describe("jobs", () => {
  it("turn validated parameters into the CLI a person would run", () => {
    const params = JobParamsSchema.parse({
      kind: "run-agents",
      benchmark: "sample",
      agent: "file-tools",
      perSubtask: "2",
    });
    expect(commandOf(params)).toEqual({
      script: "scripts/run-agents.ts",
      argv: ["--benchmark", "sample", "--agent", "file-tools", "--split", "eval", "--mock", "--per-subtask", "2"],
    });
    const cli = JobParamsSchema.parse({ kind: "run-agents", benchmark: "sample", agent: "codex", mock: false });
    expect(commandOf(cli).argv).toEqual(["--benchmark", "sample", "--agent", "codex", "--split", "eval"]);
    const file = JobParamsSchema.parse({
      kind: "run-agents",
      benchmark: "sample",
      agent: "examples/python-agent/agent.json",
      provider: "openai",
    });
    expect(commandOf(file).argv).toEqual([
      "--benchmark",
      "sample",
      "--agent",
      "examples/python-agent/agent.json",
      "--split",
      "eval",
      "--provider",
      "openai",
      "--mock",
    ]);
    const arm = JobParamsSchema.parse({
      kind: "run-agents",
      benchmark: "sample",
      agent: "file-tools",
      mitigation: "codekit",
    });
    expect(commandOf(arm).argv).toEqual([
      "--benchmark",
      "sample",
      "--agent",
      "file-tools",
      "--split",
      "eval",
      "--mitigation",
      "codekit",
      "--mock",
    ]);
    expect(commandOf(JobParamsSchema.parse({ kind: "evaluate", judge: "gemini", mock: true }))).toEqual({
      script: "scripts/evaluate.ts",
      argv: ["--judge", "gemini", "--mock"],
    });
  });

  it("refuse parameters the CLIs would refuse", () => {
    expect(JobParamsSchema.safeParse({ kind: "run-agents", benchmark: "bad name", agent: "file-tools" }).success).toBe(
      false,
    );
    expect(JobParamsSchema.safeParse({ kind: "run-agents", benchmark: "sample", agent: "robot" }).success).toBe(false);
    expect(JobParamsSchema.safeParse({ kind: "shell", command: "rm -rf /" }).success).toBe(false);
    expect(
      JobParamsSchema.safeParse({ kind: "run-agents", benchmark: "sample", agent: "file-tools", mitigation: "all" })
        .success,
    ).toBe(false);
  });

  it("take the agent CLIs and agent files inside the project, each CLI with its own protocol only", () => {
    const job = (agent: string, provider?: string) =>
      JobParamsSchema.safeParse({ kind: "run-agents", benchmark: "sample", agent, provider });
    for (const agent of [
      "claude-code",
      "codex",
      "gemini-cli",
      "agents/openhands.json",
      "examples/python-agent/agent.json",
    ])
      expect(job(agent).success, agent).toBe(true);
    expect(job("claude-code", "anthropic").success).toBe(true);
    const wrong = job("claude-code", "gemini");
    expect(wrong.error?.issues[0]).toMatchObject({ path: ["provider"], message: /anthropic protocol only/ });
    for (const agent of [
      "command",
      "/etc/agent.json",
      "../agent.json",
      "agents/../../x.json",
      ".hidden/agent.json",
      "-x.json",
      "agent.txt",
      "a b.json",
    ]) {
      const parsed = job(agent);
      expect(parsed.success, agent).toBe(false);
      expect(parsed.error?.issues[0]?.path, agent).toEqual(["agent"]);
    }
  });

  it("read progress lines", () => {
    expect(progressOf("runs 12/40 (30%) 1.5/s, elapsed 8s, ETA 19s")).toEqual({ done: 12, total: 40 });
    expect(progressOf("\r\x1b[2Kevaluate 3/9 (33%, 1 failed) 2.0/s")).toEqual({ done: 3, total: 9 });
    expect(progressOf("error: something")).toBeNull();
  });
});
