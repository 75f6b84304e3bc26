/**
 * The `guard` arm end to end: built-in agents driven by a scripted model (the mock server, Gemini
 * protocol) try to change a file outside may-change with their editors, their shell and Code-KIT's
 * write tool; the file is unchanged, the agent saw why, and the task's own changes go through.
 * The same script without the guard changes the file.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_GROUND_TRUTH } from "@/lib/benchmark/draft";
import type { Instance } from "@/lib/benchmark/schema";
import type { RunRecord } from "@/lib/bundle/write";
import type { MitigationPlan } from "@/lib/codekit/mitigation";
import { scriptFromTurns, startMockModelServer, type MockModelServer, type ScriptedTurn } from "@/lib/llm/mock-server";
import { createChatProvider } from "@/lib/llm/providers";
import type { BuiltinFramework } from "@/lib/agents/builtin";
import { bubblewrapAvailable } from "./sandbox";
import { runInstance } from "./run-instance";

const FILES: Record<string, string> = {
  "README.md": "readme\n",
  "pkg/__init__.py": "",
  "pkg/target.py": "def target():\n    return 1\n",
  "pkg/other.py": "def other():\n    return 1\n",
  "pkg/old.py": "OLD = 1\n",
};
const OTHER = FILES["pkg/other.py"]!;

const INSTANCE: Instance = {
  id: "guard/sample",
  benchmark: "guard-test",
  subtask: "add_new_file",
  sourceSample: null,
  prompt: "Edit pkg/target.py, delete pkg/old.py and create pkg/new_mod.py.",
  paraphraseIndex: null,
  contract: {
    mustRead: ["pkg/target.py"],
    mayChange: ["pkg/target.py"],
    expectedCreate: ["pkg/new_mod.py"],
    expectedDelete: ["pkg/old.py"],
  },
  groundTruth: NO_GROUND_TRUTH,
};

const plan = (guard: boolean): MitigationPlan => ({
  arm: guard ? "guard" : "tools",
  rules: [],
  tools: ["modify_function"],
  guard,
  selector: null,
});

const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  toolCalls: [{ name, arguments: args }],
});
const editor = (args: Record<string, unknown>) => call("str_replace_editor", args);
const modifyOther = call("modify_function", { path: "pkg/other.py", qualname: "other", new_body: "return 2" });

/** Every way each agent has to change pkg/other.py, then the task's own changes. */
const SCRIPTS: Record<BuiltinFramework, ScriptedTurn[]> = {
  "terminal-editor": [
    editor({ command: "str_replace", path: "pkg/other.py", old_str: "return 1", new_str: "return 2" }),
    editor({ command: "insert", path: "pkg/other.py", insert_line: 0, new_str: "import os" }),
    editor({ command: "create", path: "pkg/scratch.py", file_text: "x = 1\n" }),
    call("bash", { command: "echo x >> pkg/other.py" }),
    call("bash", { command: "sed -i s/1/2/ pkg/other.py" }),
    call("bash", { command: "rm pkg/other.py" }),
    call("bash", { command: "mv pkg/other.py pkg/moved.py" }),
    call("bash", { command: `python3 -c "open('pkg/other.py', 'w').write('x = 2')"` }),
    modifyOther,
    editor({ command: "str_replace", path: "pkg/target.py", old_str: "return 1", new_str: "return 2" }),
    call("bash", { command: "rm pkg/old.py" }),
    editor({ command: "create", path: "pkg/new_mod.py", file_text: "NEW = 1\n" }),
    { text: "Done." },
  ],
  "file-tools": [
    call("write_file", { path: "pkg/other.py", content: "x = 2\n" }),
    call("write_file", { path: "scratch.py", content: "x = 1\n" }),
    call("delete_file", { path: "pkg/other.py" }),
    call("run_python", { code: "open('pkg/other.py', 'w').write('x = 2')" }),
    call("run_python", { code: "import os; os.remove('pkg/other.py')" }),
    modifyOther,
    call("write_file", { path: "pkg/target.py", content: "def target():\n    return 2\n" }),
    call("delete_file", { path: "pkg/old.py" }),
    call("write_file", { path: "pkg/new_mod.py", content: "NEW = 1\n" }),
    { text: "Done." },
  ],
};

let work: string;
let server: MockModelServer;
let turns: ScriptedTurn[] = [];
beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "guard-run-"));
  server = await startMockModelServer({ script: (c) => scriptFromTurns(turns)(c) });
});
afterAll(async () => {
  await server.close();
  await fs.rm(work, { recursive: true, force: true });
});

async function run(framework: BuiltinFramework, guard: boolean): Promise<RunRecord> {
  turns = SCRIPTS[framework];
  const name = `${framework}-${guard ? "guard" : "free"}`;
  return runInstance({
    runId: name,
    instance: INSTANCE,
    agent: {
      name: `${framework} / mock-model`,
      framework,
      frameworkVersion: "builtin-1",
      model: "mock-model",
      provider: "gemini",
      tools: [],
      guidelines: null,
      limits: { maxSteps: 20, wallTimeSeconds: 60, maxOutputBytes: 100_000 },
      options: {},
    },
    runDir: path.join(work, name),
    async materialize(dir) {
      for (const [file, text] of Object.entries(FILES)) {
        await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await fs.writeFile(path.join(dir, file), text);
      }
    },
    provider: createChatProvider({ provider: "gemini", apiKey: "mock-key", baseUrl: server.url, timeoutMs: 10_000 }),
    scripted: true,
    commandTimeoutMs: 5_000,
    mitigation: plan(guard),
  });
}

const text = (record: RunRecord, file: string) => record.after.get(file)?.data.toString("utf8");
const observations = (record: RunRecord) =>
  record.steps.flatMap((s) => (s.kind === "observation" ? [s.text] : s.kind === "shell" ? [s.output] : []));

// A run is 10-13 sandboxed steps and two environment snapshots: the first takes about 4 s here
// (package lists and the parser loaded once), the others 1-2 s; under a loaded machine, past 5 s.
describe.runIf(await bubblewrapAvailable())("the guard arm", { timeout: 30_000 }, () => {
  it.each(["terminal-editor", "file-tools"] as const)(
    "%s: no change outside may-change by editor, shell or Code-KIT; the expected changes go through",
    async (framework) => {
      const record = await run(framework, true);
      expect(record.manifest).toMatchObject({ exitReason: "finished", mitigation: { guard: true } });
      expect(text(record, "pkg/other.py")).toBe(OTHER);
      expect(text(record, "README.md")).toBe(FILES["README.md"]);
      expect([...record.after.keys()].sort()).toEqual([
        "README.md",
        "pkg/__init__.py",
        "pkg/new_mod.py",
        "pkg/other.py",
        "pkg/target.py",
      ]);
      expect(text(record, "pkg/target.py")).toBe("def target():\n    return 2\n");
      expect(text(record, "pkg/new_mod.py")).toBe("NEW = 1\n");

      const seen = observations(record).join("\n");
      expect(seen).toContain("the sandbox guard refuses: pkg/other.py is outside the files this task may change");
      expect(seen).toMatch(
        /the sandbox guard refuses: (pkg\/)?scratch\.py is not a file this task is expected to create/,
      );
      expect(seen).toContain("Read-only file system");
      expect(seen).toContain("[The sandbox guard refuses changes outside this task's boundary");
      if (framework === "file-tools")
        expect(seen).toContain("the sandbox guard refuses: pkg/other.py is not a file this task is expected to delete");
      else expect(seen).toContain("Device or resource busy");

      const sandbox = JSON.parse(record.native!.get("sandbox.json")!.toString("utf8")) as Record<string, unknown>;
      expect(sandbox).toMatchObject({ isolated: true, guard: { writableFolders: ["pkg"], breaches: [] } });
    },
  );

  it("a run without the guard on the same instance is unaffected: the same script changes the file", async () => {
    const record = await run("terminal-editor", false);
    expect(record.manifest.exitReason).toBe("finished");
    // The editor's edit, the append and sed went through, rm removed the file, python wrote it anew.
    expect(text(record, "pkg/other.py")).toBe("x = 2");
    expect(record.after.has("pkg/scratch.py")).toBe(true);
    expect(observations(record).join("\n")).not.toContain("sandbox guard");
    expect(record.native!.get("sandbox.json")!.toString("utf8")).not.toContain("breaches");
  });
});
