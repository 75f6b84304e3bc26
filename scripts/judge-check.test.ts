import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { main as judgeCheck } from "./judge-check";
import { main as runAgents } from "./run-agents";
import { sampleDatabase } from "./test-support";

const { work, io, query } = sampleDatabase("judge-check-");

// A budget, not a hidden flake: the scripted agents run the sample's tests for real (about 3 s a run).
describe("judge-check CLI", { timeout: 120_000 }, () => {
  it("refuses to score without scripted runs", async () => {
    await expect(judgeCheck(["--judge", "rule"], io().io)).rejects.toSatisfy(
      (e: unknown) => e instanceof AppError && e.code === "NOT_FOUND",
    );
  });

  it("judges the scripted runs it has not judged, scores the rule judge and the scripted LLM judge per metric, and stores the scores", async () => {
    const made = io();
    const argv = ["--benchmark", "sample", "--mock", "--runs-dir", `${work}/runs`, "--agent", "file-tools"];
    expect(await runAgents([...argv, "--per-subtask", "1"], made.io)).toBe(0);
    const behaviours = query<{ n: number }>(
      "SELECT count(*) AS n FROM run_artifacts WHERE path = 'native/scripted-behaviour.json'",
    )[0]!.n;
    expect(behaviours).toBeGreaterThanOrEqual(9);

    const rule = io();
    expect(await judgeCheck(["--judge", "rule", "--json"], rule.io)).toBe(0);
    const ruleResult = JSON.parse(rule.out());
    expect(ruleResult).toMatchObject({ judge: "rule judge", runs: behaviours });
    const ruleMetrics = ruleResult.metrics as { metric: string; accuracy: number | null }[];
    expect(ruleMetrics.length).toBeGreaterThanOrEqual(8);
    // The rule judge agrees with the script on the clean runs of the file metrics it decides exactly.
    expect(ruleMetrics.find((m) => m.metric === "file_delete")?.accuracy).toBe(1);

    const llm = io();
    expect(await judgeCheck(["--judge", "openai", "--mock"], llm.io)).toBe(0);
    expect(llm.out()).toMatch(/^llm-openai \(mock-openai\) on \d+ scripted run\(s\): macro accuracy \d/);
    expect(llm.out()).toContain("file_read");
    const stored = query<{ provider: string; metric: string }>(
      "SELECT j.provider AS provider, c.metric AS metric FROM judge_checks c JOIN judges j ON j.id = c.judge_id ORDER BY 1, 2",
    );
    expect(stored.filter((r) => r.provider === "openai").map((r) => r.metric)).toEqual(
      expect.arrayContaining(["file_read", "instruction_following"]),
    );
    expect(stored.some((r) => r.provider === "")).toBe(true);
  });
});
