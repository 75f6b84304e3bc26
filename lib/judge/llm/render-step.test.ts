import { describe, expect, it } from "vitest";
import { summarizeArguments } from "./render-step";

describe("summarizeArguments", () => {
  it("shows the arguments the tool registry knows as paths, globs and commands first", () => {
    expect(summarizeArguments({ content: "x".repeat(500), file_path: "pkg/a.py" }, 60)).toMatch(
      /^file_path=pkg\/a\.py /,
    );
    expect(summarizeArguments({ description: "find them", pattern: "pkg/**/*.py" }, 80)).toBe(
      "pattern=pkg/**/*.py description=find them",
    );
    expect(summarizeArguments({ timeout: 5, cmd: ["ls", "-la"], workdir: "/w" }, 80)).toBe(
      'cmd=["ls","-la"] workdir=/w timeout=5',
    );
  });
});
