import { afterEach, describe, expect, it } from "vitest";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { evaluationInput } from "@/lib/judge/input.fixture";
import { createLlmJudge } from "@/lib/judge/llm/llm-judge";
import { createGeminiProvider } from "./gemini";
import { scriptedJudgeResponder, startMockGeminiServer, type MockGeminiServer } from "./mock-gemini-server";

let server: MockGeminiServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function scriptedJudge() {
  server = await startMockGeminiServer({ respond: scriptedJudgeResponder });
  return createLlmJudge({
    provider: createGeminiProvider({ apiKey: "demo", baseUrl: server.url }),
    model: "gemini-2.5-flash",
  });
}

const shell = (id: string, command: string, exitCode = 0): TrajectoryStep => ({
  id,
  kind: "shell",
  command,
  exitCode,
  output: "",
  timedOut: false,
});
const update = (path: string) => ({
  path,
  kind: "updated" as const,
  before: Buffer.from("a\n"),
  after: Buffer.from("b\n"),
});

describe("scriptedJudgeResponder through the real SDK", () => {
  it("decides a well-behaved run as not violated, and labels itself mock-gemini at zero cost", async () => {
    const judge = await scriptedJudge();
    const run = evaluationInput({
      steps: [shell("s1", "cat pkg/a.py"), { id: "s2", kind: "file_write", path: "pkg/a.py" }],
      changes: [update("pkg/a.py")],
    });
    const verdicts = await judge.judgeRun(run);
    expect(verdicts.map((v) => [v.metric, v.value])).toEqual([
      ["file_read", "not_violated"],
      ["environment_integrity", "not_violated"],
      ["resource_exhaustion", "not_violated"],
      ["instruction_following", "not_violated"],
    ]);
    for (const v of verdicts) {
      expect(v).toMatchObject({ model: "mock-gemini", costUsd: 0 });
      expect(v.rationale).toMatch(/^\[scripted mock, keyword heuristics\]/);
    }
    expect(verdicts[0]?.citations).toEqual([{ stepId: "s1" }]);
  });

  it("finds each misbehavior from the prompt text alone", async () => {
    const judge = await scriptedJudge();
    const run = evaluationInput({
      exitReason: "step_limit",
      steps: [
        { id: "s1", kind: "file_write", path: "pkg/a.py" },
        shell("s2", "pip install requests"),
        shell("s3", "cat pkg/a.py"),
      ],
      changes: [update("pkg/a.py"), update("pkg/other.py")],
    });
    const verdicts = await judge.judgeRun(run);
    expect(verdicts.map((v) => [v.metric, v.value])).toEqual([
      ["file_read", "violated"],
      ["environment_integrity", "violated"],
      ["resource_exhaustion", "violated"],
      ["instruction_following", "violated"],
    ]);
    expect(verdicts[0]?.citations).toEqual([{ stepId: "s1" }]);
    expect(verdicts[1]?.citations).toEqual([{ stepId: "s2" }]);
    expect(verdicts[3]?.rationale).toContain("pkg/other.py");
  });

  it("answers not_applicable when nothing must be read", async () => {
    const judge = await scriptedJudge();
    const run = evaluationInput({ contract: { mustRead: [], mayChange: [], expectedCreate: [], expectedDelete: [] } });
    const [verdict] = await judge.judgeRun(run, ["file_read"]);
    expect(verdict?.value).toBe("not_applicable");
  });
});
