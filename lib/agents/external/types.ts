/**
 * External agents: real agent programs (Claude Code, Codex CLI, Gemini CLI, or any command that
 * follows the contract in docs/external-agents.md) run headless inside the sandbox. An adapter
 * says how to configure one (files under its HOME, environment, argv), where its native
 * transcripts land, and how to turn them into our trajectory.
 */
import type { NormalizedTranscript } from "./transcript";

/** The wire protocol an agent speaks to its model (what the gateway forwards). */
export type ModelProtocol = "anthropic" | "openai" | "gemini";

export interface LaunchInput {
  /** HOME inside the sandbox (the run folder's home/): config and session files go here. */
  homeDir: string;
  workspaceDir: string;
  /** The model endpoint as the agent must call it (the gateway, as seen from inside the sandbox). */
  baseUrl: string;
  /** A placeholder: the gateway replaces it with the real credentials. */
  apiKey: string;
  model: string;
  task: string;
  maxSteps: number;
  guidelines: string | null;
  /**
   * The Code-KIT rules and tool pointer of the run's plan (`mitigationInstructions`), for the CLI's
   * user-level instructions file under HOME: a file in the workspace would itself be a change.
   */
  instructions: string | null;
  /** The Code-KIT MCP server to register in the CLI's configuration, when the plan has tools. */
  mcpServer: McpServerLaunch | null;
  /** The agent's program (resolved by the caller: the project's node_modules/.bin or a configured path). */
  binary: string;
  /** For the command adapter: the command line and where it writes its outputs. */
  command?: string;
  outputDir: string;
}

/** A stdio MCP server as a CLI's configuration starts it (inside the sandbox). */
export interface McpServerLaunch {
  /** Its name in the configuration, which the CLIs put in the tool names (`mcp__codekit__...`). */
  name: string;
  command: string;
  args: string[];
}

export interface Launch {
  argv: string[];
  env: Record<string, string>;
}

export interface ExternalAgentAdapter {
  /** Its name in agent files, jobs and `--agent` (the key it has in the registry, index.ts). */
  framework: string;
  protocol: ModelProtocol;
  /** The npm package that provides the binary (null for the command adapter). */
  npmPackage: string | null;
  /** The binary's name under node_modules/.bin. */
  binName: string | null;
  /** Name prefixes under HOME of the program's own settings and sessions (not counted as environment changes). */
  stateInHome: string[];
  /** Writes the agent's configuration under HOME and returns how to start it. */
  prepare(input: LaunchInput): Promise<Launch>;
  /** Native session files under HOME to keep (relative paths), found after the run. */
  sessionFiles(homeDir: string): Promise<string[]>;
  /** Our trajectory from what the agent printed (stdout) and wrote (outputs, session files). */
  normalize(input: { stdout: string; task: string; homeDir: string; outputDir: string }): Promise<NormalizedTranscript>;
}
