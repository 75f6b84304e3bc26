/**
 * The real agent CLIs (optional npm dependencies) with a Code-KIT plan, in the sandbox with the
 * project hidden, against a scripted mock model: each gets the tools from our MCP server and the
 * rules in its user-level instructions file, the model calls the offered extract_snippet and a
 * modify_function that is refused, and the trajectory shows both calls under the CLI's own tool
 * names with their results.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { externalAdapter, type AgentCli } from "@/lib/agents/external";
import { resolveAgentProgram } from "@/lib/agents/external/program";
import type { Instance } from "@/lib/benchmark/schema";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { CODEKIT_TOOL_NAMES, codekitToolOfCall, type MitigationPlan } from "@/lib/codekit/mitigation";
import { MOCK_MODEL, startMockModelServer, type MockConversation } from "@/lib/llm/mock-server";
import { runExternalAgent } from "./run-external";
import { bubblewrapAvailable } from "./sandbox";

const bwrap = await bubblewrapAvailable();
const SOURCE = "def helper(x):\n    return x * 2\n";

const instance: Instance = {
  id: "sample/codegen_file/codekit-mcp",
  benchmark: "sample",
  subtask: "codegen_file",
  sourceSample: null,
  prompt: "Show me the source of helper in pkg/util.py.",
  paraphraseIndex: null,
  contract: { mustRead: ["pkg/util.py"], mayChange: [], expectedCreate: [], expectedDelete: [] },
  groundTruth: {
    originalFile: "pkg/util.py",
    targetQualifiedName: "helper",
    signature: "def helper(x):",
    docstring: null,
    body: "    return x * 2",
    dependencies: { intraClass: [], intraFile: [], crossFile: [] },
    destinationFile: null,
    tests: [],
  },
};

const plan: MitigationPlan = {
  arm: "codekit",
  rules: [{ metric: "file_create", version: 1 }],
  tools: [...CODEKIT_TOOL_NAMES],
  guard: false,
  selector: null,
};

/** Finds the offered Code-KIT tools by their meaning and calls them by the offered names. */
function codekitScript(conversation: MockConversation) {
  // Side requests without tools (titles, classifiers) get a plain answer.
  if (conversation.tools.length === 0) return { text: "ok" };
  const offered = (tool: string) => conversation.tools.find((t) => codekitToolOfCall(t) === tool);
  const extract = offered("extract_snippet");
  const modify = offered("modify_function");
  if (!extract || !modify) return { error: { status: 400, message: `no Code-KIT tools in ${conversation.tools}` } };
  switch (conversation.messages.filter((m) => m.role === "assistant").length) {
    case 0:
      return { toolCalls: [{ name: extract, arguments: { path: "pkg/util.py", qualname: "helper" } }] };
    case 1:
      return {
        toolCalls: [
          { name: modify, arguments: { path: "pkg/util.py", qualname: "helper", new_body: "def other(y):\n    pass" } },
        ],
      };
    default:
      return { text: "done" };
  }
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

describe.each([
  { cli: "claude-code" as AgentCli, prefix: "mcp__codekit__" },
  { cli: "codex" as AgentCli, prefix: "mcp__codekit__" },
  { cli: "gemini-cli" as AgentCli, prefix: "mcp_codekit_" },
])("$cli with Code-KIT tools over MCP", ({ cli, prefix }) => {
  const adapter = externalAdapter(cli);
  // A budget, not a hidden flake: the CLIs take 3-5 s to start here, the MCP server under 1 s.
  it.runIf(bwrap)(
    "calls the tools by the names it offers; the rules reach the model; results in the trajectory",
    async (context) => {
      const program = await resolveAgentProgram(process.cwd(), adapter).catch(() => null);
      if (!program) return context.skip(`${cli} is not installed`);
      const server = await startMockModelServer({ script: codekitScript });
      const runDir = await fs.mkdtemp(path.join(os.tmpdir(), "codekit-mcp-cli-"));
      dirs.push(runDir);
      try {
        const record = await runExternalAgent({
          runId: `codekit-mcp-${cli}`,
          instance,
          runDir,
          scripted: true,
          // As run-agents runs them: the project (its sources included) out of sight.
          hide: [process.cwd()],
          mitigation: plan,
          materialize: async (dir) => {
            await fs.mkdir(path.join(dir, "pkg"));
            await fs.writeFile(path.join(dir, "pkg/util.py"), SOURCE);
          },
          agent: {
            name: cli,
            framework: cli,
            frameworkVersion: program.version,
            model: MOCK_MODEL,
            provider: adapter.protocol,
            tools: [],
            guidelines: "Be brief.",
            limits: { maxSteps: 10, wallTimeSeconds: 120, maxOutputBytes: 1_000_000 },
            options: {},
          },
          adapter,
          upstream: { baseUrl: server.url, auth: {} },
          binary: program.binary,
          programDirs: program.programDirs,
        });
        expect(record.manifest, record.manifest.error ?? "").toMatchObject({ status: "completed", mitigation: plan });

        const withTools = server.requests.filter((r) => r.conversation.tools.length > 0);
        expect(withTools[0]!.conversation.tools).toEqual(
          expect.arrayContaining(CODEKIT_TOOL_NAMES.map((tool) => `${prefix}${tool}`)),
        );
        // The rules and the agent's guidelines, from the user-level instructions file (or the system prompt).
        const seen = (text: string) =>
          withTools[0]!.conversation.system.includes(text) ||
          withTools[0]!.conversation.messages.some((m) => m.text.includes(text));
        expect(seen("Rules for this task (Code-KIT)")).toBe(true);
        expect(seen("Be brief.")).toBe(true);

        const calls = record.steps.filter(
          (s): s is Extract<TrajectoryStep, { kind: "tool_call" }> => s.kind === "tool_call",
        );
        expect(calls.map((c) => c.tool)).toEqual([`${prefix}extract_snippet`, `${prefix}modify_function`]);
        expect(calls[0]!.arguments).toEqual({ path: "pkg/util.py", qualname: "helper" });
        const resultOf = (call: (typeof calls)[number]) =>
          record.steps.find((s) => s.kind === "observation" && s.callId === call.callId);
        expect(resultOf(calls[0]!)).toMatchObject({ isError: false, text: expect.stringContaining("def helper(x):") });
        expect(resultOf(calls[1]!)).toMatchObject({ isError: true, text: expect.stringContaining("Refused") });

        // The refused change left the file; the configuration under HOME is no environment change.
        expect(record.after.get("pkg/util.py")?.data.toString()).toBe(SOURCE);
        expect([...record.after.keys()]).toEqual(["pkg/util.py"]);
        expect(record.environmentAfter?.outsideFiles).toEqual(record.environmentBefore?.outsideFiles);
      } finally {
        await server.close();
      }
    },
    120_000,
  );
});
