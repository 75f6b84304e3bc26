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
      argv: [
        "--benchmark",
        "sample",
        "--agent",
        "file-tools",
        "--provider",
        "gemini",
        "--split",
        "eval",
        "--mock",
        "--per-subtask",
        "2",
      ],
    });
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
  });

  it("read progress lines", () => {
    expect(progressOf("runs 12/40 (30%) 1.5/s, elapsed 8s, ETA 19s")).toEqual({ done: 12, total: 40 });
    expect(progressOf("\r\x1b[2Kevaluate 3/9 (33%, 1 failed) 2.0/s")).toEqual({ done: 3, total: 9 });
    expect(progressOf("error: something")).toBeNull();
  });
});
