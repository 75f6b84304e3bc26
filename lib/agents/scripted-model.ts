/**
 * The scripted model of `run-agents --mock`: a local server speaking the providers' protocols,
 * answering each conversation with the script of the instance whose task prompt it holds (clean
 * runs and every misbehavior, lib/agents/scripted-behaviours.ts). Scripts are registered as each
 * run's workspace is made, from the files the agent will find there.
 */
import type { BuiltinFramework } from "@/lib/agents/builtin";
import type { ExternalFramework } from "@/lib/agents/external";
import { loadScriptedMoveParser } from "./scripted-move";
import { startMockModelServer } from "@/lib/llm/mock-server";
import { scriptFromTurns, type MockConversation } from "@/lib/llm/mock-server/script";
import {
  scriptedTurns,
  TOOL_SETS,
  toolSetOf,
  type Behaviour,
  type ScriptedCodekit,
  type ScriptedTurn,
  type ScriptInput,
  type ToolSet,
} from "@/lib/agents/scripted-behaviours";
import type { Instance } from "@/lib/benchmark/schema";
import { guidelinesFor } from "@/lib/codekit/guidelines";
import { codekitToolOfCall } from "@/lib/codekit/mitigation";
import { scriptedSelectorAnswer, SELECTOR_MARKER } from "@/lib/codekit/selector";
import type { WorkspaceFiles } from "@/lib/benchmark/workspace-files";

export interface ScriptedModel {
  readonly url: string;
  /** The instance's script, from its workspace as materialized (`workspaceDir` as the agent sees it). */
  register(input: { instance: Instance; files: WorkspaceFiles; behaviour: Behaviour; workspaceDir: string }): void;
  close(): Promise<void>;
}

/**
 * The tool set the script writes calls for: an agent's own where the scripts know its tool names,
 * else a bash-only script (a command agent; an agent CLI newer than the scripts).
 */
export const scriptToolSetOf = (framework: BuiltinFramework | ExternalFramework): ToolSet =>
  (TOOL_SETS as readonly string[]).includes(framework) ? (framework as ToolSet) : "bash";

/**
 * The script for a request: the instance whose task prompt the conversation's user messages hold.
 * The CLIs wrap the prompt in context of their own, so the prompt is looked for inside the text;
 * the longest match wins when one prompt contains another.
 */
function scriptFor(byPrompt: Map<string, ScriptInput>, conversation: MockConversation) {
  const texts = conversation.messages.filter((m) => m.role === "user").map((m) => m.text);
  let best: { prompt: string; input: ScriptInput } | undefined;
  for (const [prompt, input] of byPrompt) {
    if (texts.some((t) => t.includes(prompt)) && (!best || prompt.length > best.prompt.length))
      best = { prompt, input };
  }
  return best;
}

/**
 * The Code-KIT tools a request offers (under whatever name the agent gives them) and the rules its
 * instructions show (the CLIs put their instruction files in the system prompt or a user message).
 */
function codekitOffered(conversation: MockConversation): ScriptedCodekit | undefined {
  const tools: ScriptedCodekit["tools"] = {};
  for (const name of conversation.tools) {
    const tool = codekitToolOfCall(name);
    if (tool) tools[tool] = name;
  }
  const text = [conversation.system, ...conversation.messages.filter((m) => m.role === "user").map((m) => m.text)].join(
    "\n",
  );
  const rules = (guidelinesFor() ?? []).filter((g) => text.includes(g.rule)).map((g) => g.metric);
  return Object.keys(tools).length > 0 || rules.length > 0 ? { tools, rules } : undefined;
}

/** The workspace's Python files as text (a scripted move reads their imports). */
function pythonTexts(files: WorkspaceFiles): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [path, file] of files)
    if (path.endsWith(".py") && !file.omitted) texts.set(path, file.data.toString("utf8"));
  return texts;
}

export async function startScriptedModel(toolSet: ToolSet): Promise<ScriptedModel> {
  await loadScriptedMoveParser();
  const byPrompt = new Map<string, ScriptInput>();
  // One script per task and mitigation: the turns depend on the tools and rules the request shows.
  const turnsCache = new Map<string, ScriptedTurn[]>();
  const server = await startMockModelServer({
    script: (conversation: MockConversation) => {
      // The Code-KIT selector's request (a mitigation arm): the deterministic choice by subtask.
      if (conversation.system.includes(SELECTOR_MARKER)) {
        const user = conversation.messages.find((m) => m.role === "user")?.text ?? "";
        return { text: scriptedSelectorAnswer(user) };
      }
      const offered = toolSetOf(conversation.tools);
      // Side requests without tools (titles, classifiers) get a plain answer.
      if (offered === null) return { text: "ok" };
      const found = offered === toolSet ? scriptFor(byPrompt, conversation) : undefined;
      if (!found) return { error: { status: 400, message: `no script for this task (tool set ${offered})` } };
      const codekit = codekitOffered(conversation);
      const key = `${found.prompt}\u0000${JSON.stringify(codekit ?? null)}`;
      let turns = turnsCache.get(key);
      if (!turns) {
        turns = scriptedTurns({ ...found.input, ...(codekit ? { codekit } : {}) });
        turnsCache.set(key, turns);
      }
      return scriptFromTurns(turns)(conversation);
    },
  });
  return {
    url: server.url,
    register({ instance, files, behaviour, workspaceDir }) {
      const texts = new Map<string, string>();
      const gt = instance.groundTruth;
      for (const p of new Set([...instance.contract.mustRead, gt.originalFile, gt.destinationFile])) {
        const file = p ? files.get(p) : undefined;
        if (p && file) texts.set(p, file.data.toString("utf8"));
      }
      const moves = instance.subtask === "add_new_file" || instance.subtask === "add_existing_file";
      const pythonFiles = moves ? pythonTexts(files) : undefined;
      byPrompt.set(instance.prompt, { instance, files: texts, pythonFiles, toolSet, behaviour, workspaceDir });
      // A new registration of a prompt (another run of the instance) drops its cached scripts.
      for (const key of turnsCache.keys()) if (key.startsWith(`${instance.prompt}\u0000`)) turnsCache.delete(key);
    },
    close: () => server.close(),
  };
}
