import { describe, expect, it } from "vitest";
import { parseBundle } from "@/lib/bundle/parse";
import { BUNDLE_MEMBERS, REPO_DIFF_MEMBER } from "@/lib/bundle/schema";
import { unifiedDiff } from "./formats/unified-diff";
import { foreignBundle, foreignRunId } from "./to-bundle";
import { NO_USAGE, type ForeignRun } from "./types";

const PATCH = `diff --git a/pkg/a.py b/pkg/a.py
index 1111111..2222222 100644
--- a/pkg/a.py
+++ b/pkg/a.py
@@ -1,2 +1,2 @@
 def f():
-    return 1
+    return 2
diff --git a/reproduce.py b/reproduce.py
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/reproduce.py
@@ -0,0 +1 @@
+print(1)
`;

function run(over: Partial<ForeignRun> = {}): ForeignRun {
  return {
    index: 0,
    formatVersion: null,
    task: { benchmark: "SWE-bench Verified", instanceId: "pkg__pkg-7", prompt: "Fix f." },
    agent: { framework: "openhands", frameworkVersion: "0.35.0", model: "gpt-5", provider: "openai" },
    steps: [
      { id: "s1", kind: "shell", command: "cat pkg/a.py", exitCode: 0, output: "", timedOut: false },
      { id: "s1", kind: "message", role: "assistant", text: "done", timestamp: "2026-11-01T10:00:05Z" },
    ],
    hasTrajectory: true,
    patch: PATCH,
    workspaceRoot: "/testbed",
    status: "completed",
    exitReason: "finished",
    error: null,
    startedAt: null,
    finishedAt: null,
    usage: NO_USAGE,
    ...over,
  };
}

const FILE = { name: "logs/output.jsonl", data: Buffer.from("{}\n") };

describe("a foreign run as a run bundle", () => {
  it("is a valid version-3 bundle on an external instance, with its provenance and the log verbatim", async () => {
    const built = await foreignBundle(FILE, unifiedDiff, run());
    const bundle = parseBundle(built.files, built.label);
    expect(bundle.manifest).toMatchObject({
      version: 3,
      benchmark: "swe-bench-verified",
      instanceId: "swe-bench-verified/pkg__pkg-7",
      agent: { framework: "openhands", model: "gpt-5", provider: "openai" },
      source: { format: "unified-diff", file: "output.jsonl", index: 0, readerVersion: unifiedDiff.readerVersion },
      evidence: { trajectory: true, workspace: "patch", environment: false },
      workspaceRoot: "/testbed",
    });
    expect(bundle.instance).toMatchObject({
      subtask: "external",
      sourceSample: "pkg__pkg-7",
      contract: { origin: "none" },
    });
    expect(built.files.get(`native/unified-diff/output.jsonl`)).toEqual(FILE.data);
    expect(built.files.get(REPO_DIFF_MEMBER)!.toString()).toBe(PATCH);
    expect(built.runId).toBe(foreignRunId(bundle.manifest.source!.sha256, 0));
  });

  it("lists a changed file whose contents the diff lacks as not captured, and a created one with its text", async () => {
    const bundle = parseBundle((await foreignBundle(FILE, unifiedDiff, run())).files, "x");
    expect(bundle.changes.map((c) => [c.path, c.kind, c.before?.contentOmitted, c.after?.contentOmitted])).toEqual([
      ["pkg/a.py", "updated", "not_captured", "not_captured"],
      ["reproduce.py", "created", undefined, undefined],
    ]);
  });

  it("makes repeated step ids unique and takes its times from the steps when the log has none", async () => {
    const bundle = parseBundle((await foreignBundle(FILE, unifiedDiff, run())).files, "x");
    expect(bundle.steps.map((s) => s.id)).toEqual(["s1", "s1~2"]);
    expect([bundle.manifest.startedAt, bundle.manifest.finishedAt]).toEqual([
      "2026-11-01T10:00:05.000Z",
      "2026-11-01T10:00:05.000Z",
    ]);
  });

  it("attaches to one of our instances when the log names one, without an instance.json", async () => {
    const built = await foreignBundle(
      FILE,
      unifiedDiff,
      run({ task: { benchmark: null, instanceId: "task-7", prompt: null } }),
      {
        ourInstance: (id) => (id === "task-7" ? { id, benchmark: "sample" } : null),
      },
    );
    expect(built.files.has(BUNDLE_MEMBERS.instance)).toBe(false);
    expect(parseBundle(built.files, "x").manifest).toMatchObject({ benchmark: "sample", instanceId: "task-7" });
  });

  it("knows no files without a repo diff, and names the contract it was given", async () => {
    const contract = {
      mustRead: [],
      mayChange: ["pkg/a.py"],
      expectedCreate: [],
      expectedDelete: [],
      origin: "gold_patch" as const,
    };
    const built = await foreignBundle(FILE, unifiedDiff, run({ patch: null }), {
      benchmark: "swe-bench-lite",
      contractFor: () => contract,
    });
    const bundle = parseBundle(built.files, "x");
    expect(bundle.manifest.evidence!.workspace).toBe("none");
    expect(bundle.changes).toEqual([]);
    expect(bundle.instance).toMatchObject({ benchmark: "swe-bench-lite", contract });
  });

  it("keeps a run whose diff does not parse, its files unknown, and says why", async () => {
    const bad = "diff --git a/pkg/a.py b/pkg/a.py\n--- a/pkg/a.py\n+++ b/pkg/a.py\n@@ -1,7 +1,7 @@\n-a\n+b\n";
    const built = await foreignBundle(FILE, unifiedDiff, run({ patch: bad }));
    expect(built.warnings).toEqual([expect.stringMatching(/repo diff could not be read.*output\.jsonl.*hunk/)]);
    const bundle = parseBundle(built.files, "x");
    expect(bundle.manifest.evidence!.workspace).toBe("none");
    expect(built.files.get(REPO_DIFF_MEMBER)!.toString()).toBe(bad);
  });

  it("does not take a diff whose paths leave the workspace", async () => {
    const bad = "diff --git a/../x b/../x\n--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n";
    const built = await foreignBundle(FILE, unifiedDiff, run({ patch: bad }));
    expect(built.warnings.join()).toMatch(/\.\.\/x|outside|\.\./);
    expect(parseBundle(built.files, "x").changes).toEqual([]);
  });

  it("cuts a runaway output, and fits long ids and names, so the run still goes in", async () => {
    const huge = "x".repeat(30 * 1024 * 1024);
    const longId = "c".repeat(300);
    const built = await foreignBundle(
      FILE,
      unifiedDiff,
      run({
        agent: { framework: "openhands", frameworkVersion: null, model: "m".repeat(300), provider: null },
        steps: [
          { id: "a", kind: "tool_call", tool: "execute_bash", arguments: { command: "yes" }, callId: longId },
          { id: "a", kind: "observation", text: huge, isError: false, callId: longId },
          { id: "a~2", kind: "message", role: "assistant", text: "done" },
        ],
      }),
    );
    const bundle = parseBundle(built.files, "x");
    expect(bundle.steps.map((s) => s.id)).toEqual(["a", "a~2", "a~2~2"]);
    const [call, answer] = bundle.steps;
    expect(call!.kind === "tool_call" && call!.callId).toBe(answer!.kind === "observation" && answer!.callId);
    expect((call as { callId: string }).callId.length).toBeLessThanOrEqual(200);
    expect((answer as { text: string }).text.length).toBeLessThan(300 * 1024);
    expect((answer as { text: string }).text).toMatch(/characters cut at import; the native log keeps them/);
    expect(bundle.manifest.agent.model.length).toBeLessThanOrEqual(200);
  });
});
