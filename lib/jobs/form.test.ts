import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentFileProblem, jobParamsFromForm } from "./form";
import { ablationLinkOf, commandOf } from "./schema";

const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
};
const runForm = (fields: Record<string, string>) =>
  jobParamsFromForm(formOf({ kind: "run-agents", benchmark: "sample", provider: "", mock: "on", ...fields }));

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "job-form-"));
  await fs.mkdir(path.join(root, "project", "agents"), { recursive: true });
  await fs.writeFile(path.join(root, "project", "agents", "mine.json"), "{}");
  await fs.writeFile(path.join(root, "outside.json"), "{}");
  await fs.symlink(path.join(root, "outside.json"), path.join(root, "project", "agents", "link.json"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("jobParamsFromForm", () => {
  it("reads the run form: built-in agents, agent CLIs, and the agent file field when 'agent file' is chosen", () => {
    expect(runForm({ agent: "file-tools", perSubtask: "2" })).toEqual({
      ok: true,
      params: {
        kind: "run-agents",
        benchmark: "sample",
        agent: "file-tools",
        mock: true,
        split: "eval",
        perSubtask: 2,
      },
    });
    expect(runForm({ agent: "gemini-cli" })).toMatchObject({ ok: true, params: { agent: "gemini-cli" } });
    expect(runForm({ agent: "file", agentFile: " examples/python-agent/agent.json " })).toMatchObject({
      ok: true,
      params: { agent: "examples/python-agent/agent.json" },
    });
    // The agent file field counts only when the select says so.
    expect(runForm({ agent: "codex", agentFile: "agents/x.json" })).toMatchObject({ params: { agent: "codex" } });
  });

  it("refuses what the CLI would refuse, naming the field", () => {
    expect(runForm({ agent: "file" })).toEqual({ ok: false, error: "agent: is required" });
    expect(runForm({ agent: "file", agentFile: "../secrets.json" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^agent: must be one of .*agent file/),
    });
    expect(runForm({ agent: "codex", provider: "anthropic" })).toEqual({
      ok: false,
      error: "provider: codex speaks the openai protocol only",
    });
    expect(runForm({ agent: "robot" })).toMatchObject({ ok: false, error: expect.stringMatching(/^agent:/) });
    expect(runForm({ agent: "file-tools", perSubtask: "500" })).toMatchObject({ error: /^perSubtask:/ });
    expect(jobParamsFromForm(formOf({ kind: "evaluate", judge: "gemini", mock: "on" }))).toMatchObject({
      ok: true,
      params: { kind: "evaluate", judge: "gemini", mock: true, force: false },
    });
  });
});

describe("the ablation form", () => {
  const ablationForm = (arms: string[], fields: Record<string, string> = {}) => {
    const form = formOf({ kind: "ablation", benchmark: "sample", agent: "file-tools", mock: "on", ...fields });
    for (const arm of arms) form.append("arms", arm);
    return jobParamsFromForm(form);
  };

  it("reads the checked arms in order, and runs npm run ablation with them", () => {
    const parsed = ablationForm(["none", "rules", "guard"], { subtask: "codegen_file", perSubtask: "1" });
    expect(parsed).toEqual({
      ok: true,
      params: {
        kind: "ablation",
        benchmark: "sample",
        agent: "file-tools",
        arms: ["none", "rules", "guard"],
        mock: true,
        split: "eval",
        subtask: "codegen_file",
        perSubtask: 1,
      },
    });
    if (!parsed.ok) return;
    expect(commandOf(parsed.params)).toEqual({
      script: "scripts/ablation.ts",
      argv: [
        ...["--benchmark", "sample", "--agent", "file-tools", "--arms", "none,rules,guard", "--split", "eval"],
        ...["--mock", "--subtask", "codegen_file", "--per-subtask", "1"],
      ],
    });
  });

  it("refuses fewer than two arms, an arm twice, and an arm that does not exist", () => {
    expect(ablationForm(["none"])).toEqual({ ok: false, error: "arms: choose at least two arms" });
    expect(ablationForm(["none", "none"])).toEqual({ ok: false, error: "arms: an arm is chosen twice" });
    expect(ablationForm(["none", "all"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^arms\[1\]: Invalid option/),
    });
  });
});

describe("ablationLinkOf", () => {
  it("finds the ablation page the CLI printed, and nothing that leaves this site's ablation page", () => {
    const log = "arm none: run\nsee /ablation?benchmark=sample&judge=1&config=abc in the dashboard (npm run dev)\n";
    expect(ablationLinkOf(log)).toBe("/ablation?benchmark=sample&judge=1&config=abc");
    expect(ablationLinkOf("see //evil.example/ablation in the dashboard")).toBeNull();
    expect(ablationLinkOf("see /ablation?x=<script> in the dashboard")).toBeNull();
    expect(ablationLinkOf("see https://evil.example/ablation in the dashboard")).toBeNull();
  });
});

describe("agentFileProblem", () => {
  it("accepts a file inside the project and names what is wrong otherwise", async () => {
    const project = path.join(root, "project");
    expect(await agentFileProblem(project, "agents/mine.json")).toBeNull();
    expect(await agentFileProblem(project, "agents/none.json")).toBe("agent: agents/none.json does not exist");
    expect(await agentFileProblem(project, "agents/link.json")).toBe(
      "agent: agents/link.json leads out of the project",
    );
    await fs.mkdir(path.join(project, "agents", "dir.json"));
    expect(await agentFileProblem(project, "agents/dir.json")).toBe("agent: agents/dir.json is not a file");
  });
});
