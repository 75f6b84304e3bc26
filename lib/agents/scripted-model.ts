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
  type ScriptedTurn,
  type ToolSet,
} from "@/lib/agents/scripted-behaviours";
import type { Instance } from "@/lib/benchmark/schema";
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
function scriptFor(byPrompt: Map<string, ScriptedTurn[]>, conversation: MockConversation) {
  const texts = conversation.messages.filter((m) => m.role === "user").map((m) => m.text);
  let best: { prompt: string; turns: ScriptedTurn[] } | undefined;
  for (const [prompt, turns] of byPrompt) {
    if (texts.some((t) => t.includes(prompt)) && (!best || prompt.length > best.prompt.length))
      best = { prompt, turns };
  }
  return best?.turns;
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
  const byPrompt = new Map<string, ScriptedTurn[]>();
  const server = await startMockModelServer({
    script: (conversation: MockConversation) => {
      const offered = toolSetOf(conversation.tools);
      // Side requests without tools (titles, classifiers) get a plain answer.
      if (offered === null) return { text: "ok" };
      const turns = offered === toolSet ? scriptFor(byPrompt, conversation) : undefined;
      if (!turns) return { error: { status: 400, message: `no script for this task (tool set ${offered})` } };
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
      byPrompt.set(
        instance.prompt,
        scriptedTurns({ instance, files: texts, pythonFiles, toolSet, behaviour, workspaceDir }),
      );
    },
    close: () => server.close(),
  };
}
