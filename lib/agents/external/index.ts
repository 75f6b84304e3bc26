/**
 * The registry of external agents. An agent CLI is one module here (how to start it, how to read
 * the transcript it leaves) and one line in AGENT_CLIS; every list of framework names (agent files,
 * `--agent`, jobs, the Jobs page) is derived from it.
 */
import { claudeCodeAdapter } from "./claude-code";
import { codexAdapter } from "./codex";
import { commandAdapter } from "./command";
import { geminiCliAdapter } from "./gemini-cli";
import type { ExternalAgentAdapter, ModelProtocol } from "./types";

export type { ExternalAgentAdapter, McpServerLaunch, ModelProtocol } from "./types";

const AGENT_CLIS = {
  "claude-code": claudeCodeAdapter,
  codex: codexAdapter,
  "gemini-cli": geminiCliAdapter,
} satisfies Record<string, ExternalAgentAdapter>;

export type AgentCli = keyof typeof AGENT_CLIS;
export const AGENT_CLI_NAMES = Object.keys(AGENT_CLIS) as [AgentCli, ...AgentCli[]];

/** The agent CLIs, and `command`: any program that follows docs/external-agents.md. */
export const EXTERNAL_FRAMEWORKS = [...AGENT_CLI_NAMES, "command"] as [
  AgentCli | "command",
  ...(AgentCli | "command")[],
];
export type ExternalFramework = AgentCli | "command";

export function externalAdapter(
  framework: ExternalFramework,
  commandProtocol: ModelProtocol = "openai",
): ExternalAgentAdapter {
  return framework === "command" ? commandAdapter(commandProtocol) : AGENT_CLIS[framework];
}
